import type { DataSource, EntityManager } from 'typeorm';
import type { DurableTimers, TimerHandler } from '@payments/eventsourcing';
import { ApiError, capabilitiesOf, Mode, productionRailFor, RailConnectorConfig, RailConnectorKind, RailDirection, RailsConfig } from '@payments/contracts';
import type { RailConnector, RailImportResult, RailOrder } from './rail-connector';
import { RailExceptions } from './rail-exceptions';
import type { IncomingCredits } from './incoming-credits';
import { RailOutcomes } from './rail-outcomes';
import { RailPayments } from './rail-payments';
import { connectorRail, ConnectorRail, sandboxPayoutScript, sandboxPullScript, SandboxRailScript } from '../saga/rail-script';
import type { TransactionFailureReason } from '@payments/contracts';

/** A sandbox script (or a pull the sandbox fails at once), or a production connector. */
export type RailChoice = SandboxRailScript | { immediateFailure: TransactionFailureReason } | ConnectorRail;

/** What a connector kind is built from: its configuration and the rails' shared bookkeeping. */
export interface RailConnectorContext {
  config: RailConnectorConfig;
  dataSource: DataSource;
  schema: string;
  /** Durable timers: a connector schedules RAIL_CONNECTOR_TIMER with `payload.connectorId`; Rails routes it back (onTimer). */
  timers: DurableTimers<EntityManager>;
  payments: RailPayments;
  outcomes: RailOutcomes;
  exceptions: RailExceptions;
  /** Money arriving at a deposit account: matched to an internal account and credited once. */
  credits: IncomingCredits;
  log: (message: string, error?: unknown) => void;
}

/** The one timer name of every connector: its payload names the connector, whose onTimer handles it. */
export const RAIL_CONNECTOR_TIMER = 'payments.rails.connector';

export type RailConnectorFactory = (context: RailConnectorContext) => RailConnector;

/**
 * The production rails of this deployment: the configured connectors (built by kind), the choice of one for a
 * payment, and the one way a payment is handed to a connector (`submit`). The sandbox never comes here: its
 * simulated rail is chosen by the same `railFor` and played by the saga's timers.
 */
export class Rails {
  readonly connectors = new Map<string, RailConnector>();
  /** Incoming credits, for the operator's assignment of an unmatched one. */
  readonly credits: IncomingCredits;

  constructor(
    private readonly dataSource: DataSource,
    readonly payments: RailPayments,
    readonly outcomes: RailOutcomes,
    readonly exceptions: RailExceptions,
    config: RailsConfig,
    factories: Partial<Record<RailConnectorKind, RailConnectorFactory>>,
    context: Omit<RailConnectorContext, 'config' | 'payments' | 'outcomes' | 'exceptions'>,
  ) {
    this.credits = context.credits;
    for (const c of config.connectors) {
      const factory = factories[c.kind];
      if (!factory) throw new Error(`rails configuration: connector ${c.id}: kind ${c.kind} is not available in this build`);
      this.connectors.set(c.id, factory({ ...context, config: c, payments, outcomes, exceptions }));
    }
  }

  timerHandlers(): Record<string, TimerHandler> {
    return {
      [RAIL_CONNECTOR_TIMER]: async (timer) => {
        const connector = this.connectors.get(String(timer.payload.connectorId));
        // A connector removed from the configuration: its timer waits (retried with backoff) until it is back.
        if (!connector?.onTimer) throw new Error(`rail connector ${String(timer.payload.connectorId)} is not configured: its timer waits`);
        await connector.onTimer(timer);
      },
    };
  }

  /**
   * The rail of a payment to (PAYOUT) or from (PULL) an external account, the one choice for transfers and quote
   * payouts: in the sandbox, the simulated rail its account's magic suffix scripts (rail-script.ts); in production,
   * the connector routed for the currency on the first of `paymentRails` that has one (or any rail of the currency
   * when none is asked), else undefined (the caller answers 501, or fails the payout, before anything moves).
   */
  railFor(payment: { mode: Mode; currency: string; direction: RailDirection; paymentRails: readonly string[]; sandboxSuffix: string | null }): RailChoice | undefined {
    if (payment.mode === 'SANDBOX') return payment.direction === 'PAYOUT' ? sandboxPayoutScript(payment.sandboxSuffix) : sandboxPullScript(payment.sandboxSuffix);
    for (const paymentRail of payment.paymentRails.length > 0 ? payment.paymentRails : [undefined]) {
      const route = productionRailFor(payment.currency, payment.direction, paymentRail);
      if (route && this.connectors.has(route.connector.id)) return connectorRail(route.connector.id, route.paymentRail);
    }
    return undefined;
  }

  /** Whether any configured connector moves money in `direction` (a transfer with none is 501 before any lookup). */
  hasAny(direction: RailDirection): boolean {
    return [...this.connectors.values()].some((c) => c.config.routes.some((r) => r.directions.includes(direction)));
  }

  connector(connectorId: string): RailConnector {
    const connector = this.connectors.get(connectorId);
    if (!connector) throw new ApiError('NOT_IMPLEMENTED', `rail connector ${connectorId} is no longer configured: restore it in RAILS_CONFIG_FILE to move its payments`, { capability: 'PAYOUT_RAIL', configure: `rail connector ${connectorId}` });
    return connector;
  }

  /** Refuses an order the connector cannot carry (an ApiError naming the field), before anything is recorded. */
  validate(connectorId: string, order: RailOrder): void {
    this.connector(connectorId).validate(order);
  }

  /**
   * Hands the payment to its connector: its `rail_payments` row (SUBMITTED, with the rail reference) and the caller's
   * own record (`alsoInTransaction`: the transaction's RecordRailSubmission) commit together. Idempotent by paymentId:
   * a repeat finds the row and records the caller's side again (a no-op when it was recorded).
   */
  async submit(connectorId: string, order: RailOrder, alsoInTransaction?: (tx: EntityManager, railReference: string) => Promise<void>): Promise<string> {
    const connector = this.connector(connectorId);
    return this.dataSource.transaction(async (tx) => {
      const existing = await this.payments.get(tx, order.paymentId);
      let railReference = existing?.rail_reference;
      if (!railReference) {
        const sequence = await this.payments.nextSequence(tx);
        railReference = connector.railReference(order, sequence);
        await this.payments.insert(tx, connectorId, order, sequence, railReference);
        await connector.accepted(tx, order);
      }
      await alsoInTransaction?.(tx, railReference);
      return railReference;
    });
  }

  /**
   * Imports a return or status file: into the named connector, or the one file connector that recognizes it. A file no
   * connector reads, or that several could, is 400 naming what to do; nothing is recorded.
   */
  async importFile(input: { connectorId?: string; name: string; content: Buffer; importedBy: string }): Promise<RailImportResult> {
    const importers = [...this.connectors.values()].filter((c) => c.importFile && (input.connectorId ? c.config.id === input.connectorId : c.recognizes?.(input.content)));
    if (input.connectorId && importers.length === 0) {
      throw new ApiError('INVALID_INPUT', `connectorId: ${this.connectors.has(input.connectorId) ? `connector ${input.connectorId} takes no files` : `no connector ${input.connectorId} is configured`}`, { errors: [{ field: 'connectorId', message: 'not a file connector of this deployment' }] });
    }
    if (importers.length === 0) throw new ApiError('INVALID_INPUT', 'file: not a NACHA return file, pain.002 or camt.054 that a configured connector reads', { errors: [{ field: 'file', message: 'unrecognized format' }] });
    if (importers.length > 1) throw new ApiError('INVALID_INPUT', `connectorId: ${importers.map((c) => c.config.id).join(', ')} all read this format: name the connector`, { errors: [{ field: 'connectorId', message: 'required: several connectors read this format' }] });
    return importers[0].importFile!(input);
  }

  /** A bridge's callback: 404 for a connector this deployment does not have (or one that takes none). */
  async callback(connectorId: string, headers: Record<string, string | undefined>, rawBody: string): Promise<void> {
    const connector = this.connectors.get(connectorId);
    if (!connector?.callback) throw new ApiError('NOT_FOUND', 'no such rail connector');
    await connector.callback(headers, rawBody);
  }

  start(): void {
    for (const c of this.connectors.values()) c.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.connectors.values()].map((c) => c.stop()));
  }

  describe() {
    return [...this.connectors.values()].map((c) => ({ id: c.config.id, kind: c.config.kind, routes: c.config.routes, capabilities: capabilitiesOf(c.config) }));
  }
}

/** The beneficiary a rail writes (NACHA's individual or company name, pain.001's creditor), from the published accountInfo. */
export function beneficiaryOf(accountInfo: Record<string, unknown>): RailOrder['beneficiary'] {
  const b = accountInfo.beneficiary as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object') return null;
  const business = b.beneficiaryType === 'BUSINESS';
  const businessInfo = (b.businessInfo ?? {}) as Record<string, unknown>;
  const name = [b.fullName, b.legalName, businessInfo.legalName].find((n): n is string => typeof n === 'string' && n.trim() !== '');
  return name ? { name, type: business ? 'BUSINESS' : 'INDIVIDUAL' } : null;
}
