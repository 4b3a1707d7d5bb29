import type { EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { ApiError, capabilitiesOf, HttpConnectorSettings, RailCapabilities, RailConnectorConfig, TransactionFailureReason } from '@payments/contracts';
import { queryRows, TimerRow } from '@payments/eventsourcing';
import { HttpRailClient, nextRailStatus, RAIL_REFERENCE_MAX_LENGTH, RailCallbackError, RailFetch, RailPaymentOrder, RailPaymentStatus, verifyRailCallback } from '@payments/rails';
import type { RailConnector, RailOrder } from '../rail-connector';
import type { RailPaymentRow } from '../rail-payments';
import { RAIL_CONNECTOR_TIMER, RailConnectorContext } from '../rails';

const STEP_NAMESPACE = '2a9c4f7e-1d3b-4e6a-8c5f-7b0d9e2a4c31';

/** Where a payment stands in the protocol's terms, for the ordering rules (nextRailStatus). */
const PROTOCOL_STATUS: Record<RailPaymentRow['status'], RailPaymentStatus['status']> = {
  SUBMITTED: 'PENDING',
  FILED: 'PENDING',
  SENT: 'PENDING',
  SETTLED: 'SETTLED',
  REJECTED: 'REJECTED',
  RETURNED: 'RETURNED',
};

/**
 * The generic HTTP connector (docs/rails/http-connector.openapi.yaml): any bank or provider bridge implementing our
 * protocol. A payment is sent by a durable timer (`send`) after its row commits, with its id as the Idempotency-Key, so
 * a crash or a bridge failure (timeout, 5xx, 429) is retried by the timer's backoff and the bridge sees one payment.
 * News arrives as the submit's answer, as signed callbacks (Standard Webhooks) or by polling (`GET /payments/{id}`)
 * once a payment has been quiet for `pollAfterSeconds`; all three go through `applyStatus`, which keeps the bridge's
 * order (`sequence`), so duplicates, stale callbacks and a callback before the submit's answer change nothing twice.
 */
export class HttpRailConnector implements RailConnector {
  readonly capabilities: RailCapabilities;
  private readonly client: HttpRailClient;
  private readonly settings: HttpConnectorSettings;

  constructor(
    private readonly context: RailConnectorContext,
    fetch: RailFetch,
    private readonly callbackUrl: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.capabilities = capabilitiesOf(context.config);
    this.settings = context.config.http!;
    const apiKey = this.secret(this.settings.apiKeyEnv);
    this.secret(this.settings.callbackSecretEnv);
    this.client = new HttpRailClient({ baseUrl: this.settings.baseUrl, apiKey, timeoutMs: this.settings.timeoutMs, fetch });
  }

  get config(): RailConnectorConfig {
    return this.context.config;
  }

  private get schema(): string {
    return this.context.schema;
  }

  /** Secrets come from the environment variables the configuration names; a missing one stops the process at start. */
  private secret(name: string): string {
    const value = this.env[name]?.trim();
    if (!value) throw new Error(`rails configuration: connector ${this.config.id}: environment variable ${name} is not set`);
    return value;
  }

  validate(order: RailOrder): void {
    if (!this.config.routes.some((r) => r.currency === order.currency && r.paymentRail === order.paymentRail)) {
      throw new ApiError('INVALID_INPUT', `paymentRail: connector ${this.config.id} does not carry ${order.currency} on ${order.paymentRail}`, { errors: [{ field: 'paymentRail', message: 'not routed to this connector' }] });
    }
    if (!Number.isSafeInteger(order.amount) || order.amount <= 0) throw new ApiError('INVALID_INPUT', 'amount: must be a positive integer in the smallest unit', { errors: [{ field: 'amount', message: 'positive integer' }] });
  }

  /** The bridge knows the payment by our id (its Idempotency-Key). */
  railReference(order: RailOrder): string {
    return order.paymentId;
  }

  /** The send is a durable timer scheduled with the payment's row: it survives a crash and retries with backoff. */
  async accepted(tx: EntityManager, order: RailOrder): Promise<void> {
    await this.schedule(tx, order.paymentId, 'send', 0);
  }

  private schedule(tx: EntityManager, paymentId: string, step: 'send' | 'poll', delayMs: number, attempt = 0): Promise<string> {
    return this.context.timers.schedule(tx, {
      id: uuidv5(`${paymentId}/${step}/${attempt}`, STEP_NAMESPACE),
      name: RAIL_CONNECTOR_TIMER,
      delayMs,
      realTime: true,
      streamId: paymentId,
      payload: { connectorId: this.config.id, paymentId, step, attempt },
    });
  }

  async onTimer(timer: TimerRow): Promise<void> {
    const { paymentId, step, attempt } = timer.payload as { paymentId: string; step: 'send' | 'poll'; attempt: number };
    const payment = await this.context.payments.get(this.context.dataSource, paymentId);
    if (!payment || isFinal(payment)) return;
    if (step === 'send') return this.send(payment);
    return this.poll(payment, attempt);
  }

  /** Throws on a retryable failure: the timer backs off and sends again with the same Idempotency-Key. */
  private async send(payment: RailPaymentRow): Promise<void> {
    if (payment.status !== 'SUBMITTED') return;
    const result = await this.client.submit(this.protocolOrder(payment));
    if (result.kind === 'retry') throw new Error(`rail bridge ${this.config.id}: ${result.reason}`);
    await this.context.dataSource.transaction(async (tx) => {
      const current = await this.lock(tx, payment.payment_id);
      if (!current || isFinal(current)) return;
      if (result.kind === 'accepted') {
        await this.applyStatus(tx, current, result.status, 'submit');
      } else if (result.kind === 'rejected') {
        await this.context.outcomes.record(tx, { paymentId: current.payment_id, kind: 'REJECTED', failureReason: this.failureReason(current, 'REJECTED'), railCode: result.reasonCode, source: 'submit' });
      } else {
        // 409: the bridge holds another order under this id. Not failed (it may still execute that one): an operator looks, callbacks and polls report.
        await this.context.exceptions.record(tx, { exceptionId: `RailException:${current.payment_id}/conflict`, connectorId: this.config.id, paymentId: current.payment_id, kind: 'BRIDGE_ERROR', message: `bridge ${this.config.id} answered 409 to ${current.payment_id}: ${result.reason}` });
        await this.context.payments.setStatus(tx, current.payment_id, 'SENT');
      }
      if (current.status === 'SUBMITTED') await this.schedule(tx, current.payment_id, 'poll', this.settings.pollAfterSeconds * 1000, 1);
    });
  }

  /** The fallback when callbacks do not come: asks the bridge, then waits again (a bridge that never saw it gets it sent again). */
  private async poll(payment: RailPaymentRow, attempt: number): Promise<void> {
    const result = await this.client.status(payment.payment_id);
    if (result.kind === 'retry') throw new Error(`rail bridge ${this.config.id}: ${result.reason}`);
    await this.context.dataSource.transaction(async (tx) => {
      const current = await this.lock(tx, payment.payment_id);
      if (!current || isFinal(current)) return;
      if (result.kind === 'found') await this.applyStatus(tx, current, result.status, 'poll');
      else if (current.status === 'SENT') {
        await this.context.payments.setStatus(tx, current.payment_id, 'SUBMITTED');
        await this.schedule(tx, current.payment_id, 'send', 0, attempt);
      }
      const after = await this.context.payments.get(tx, current.payment_id);
      if (after && !isFinal(after)) await this.schedule(tx, current.payment_id, 'poll', this.settings.pollAfterSeconds * 1000, attempt + 1);
    });
  }

  /**
   * A signed callback (POST /rails/v1/callbacks/{connectorId}, raw body): verified with the connector's secret, then
   * applied like any other news. An unknown payment id is recorded as an exception; a bad signature is 400.
   */
  async callback(headers: Record<string, string | undefined>, rawBody: string): Promise<void> {
    let status: RailPaymentStatus;
    try {
      status = verifyRailCallback(this.secret(this.settings.callbackSecretEnv), headers, rawBody);
    } catch (error) {
      if (error instanceof RailCallbackError) throw new ApiError('INVALID_INPUT', `callback refused: ${error.message}`);
      throw error;
    }
    await this.context.dataSource.transaction(async (tx) => {
      const [row] = await queryRows<RailPaymentRow>(tx, `SELECT * FROM ${this.schema}.rail_payments WHERE connector_id = $1 AND rail_reference = $2 FOR UPDATE`, [this.config.id, status.id]);
      if (!row) {
        await this.context.exceptions.record(tx, { exceptionId: `RailException:${this.config.id}/callback/${status.id}/${status.sequence}`, connectorId: this.config.id, kind: 'UNMATCHED_ENTRY', message: `callback for ${status.id} (${status.status}): no payment of ours has this id`, detail: { ...status } });
        return;
      }
      await this.applyStatus(tx, row, status, `callback:${headers['webhook-id'] ?? ''}`);
    });
  }

  /** One place for the bridge's news, under the payment's row lock: the protocol's ordering rules decide. */
  private async applyStatus(tx: EntityManager, row: RailPaymentRow, status: RailPaymentStatus, source: string): Promise<void> {
    const current = row.last_sequence === null ? undefined : { status: PROTOCOL_STATUS[row.status], sequence: Number(row.last_sequence) };
    if (!nextRailStatus(current, status).apply) return;
    if (status.status === 'PENDING') {
      await this.context.payments.setStatus(tx, row.payment_id, 'SENT', { lastSequence: status.sequence, ...(status.providerReference ? { providerReference: status.providerReference } : {}) });
      return;
    }
    await this.context.outcomes.record(tx, {
      paymentId: row.payment_id,
      kind: status.status,
      ...(status.status === 'SETTLED' ? {} : { failureReason: this.failureReason(row, status.status) }),
      ...(status.reasonCode ? { railCode: status.reasonCode } : {}),
      source,
    });
    await queryRows(tx, `UPDATE ${this.schema}.rail_payments SET last_sequence = $2, provider_reference = coalesce($3, provider_reference) WHERE payment_id = $1`, [row.payment_id, status.sequence, status.providerReference ?? null]);
  }

  /** A bridge's codes are its own: the published reason is the direction's general one, the code stays in failureDetail. */
  private failureReason(row: RailPaymentRow, kind: 'REJECTED' | 'RETURNED'): TransactionFailureReason {
    if (row.kind === 'DEBIT') return 'COLLECTION_FAILED';
    return kind === 'RETURNED' ? 'PAYOUT_RETURNED' : 'ACCOUNT_CANNOT_RECEIVE';
  }

  private protocolOrder(row: RailPaymentRow): RailPaymentOrder {
    const order = row.rail_order;
    return {
      id: row.payment_id,
      direction: row.kind === 'DEBIT' ? 'DEBIT' : 'CREDIT',
      amount: Number(row.amount),
      currency: row.currency,
      paymentRail: row.payment_rail,
      counterparty: { accountInfo: order.accountInfo, ...(order.beneficiary ? { beneficiary: order.beneficiary } : {}) },
      reference: order.reference.slice(0, RAIL_REFERENCE_MAX_LENGTH),
      callbackUrl: this.callbackUrl,
    };
  }

  private async lock(tx: EntityManager, paymentId: string): Promise<RailPaymentRow | undefined> {
    const [row] = await queryRows<RailPaymentRow>(tx, `SELECT * FROM ${this.schema}.rail_payments WHERE payment_id = $1 FOR UPDATE`, [paymentId]);
    return row;
  }

  /** Sending and polling are durable timers: nothing runs in the background besides them. */
  start(): void {}

  async stop(): Promise<void> {}
}

/** Nothing left to send or poll for (a return after settlement still arrives by callback). */
const isFinal = (p: RailPaymentRow) => p.status === 'SETTLED' || p.status === 'REJECTED' || p.status === 'RETURNED';
