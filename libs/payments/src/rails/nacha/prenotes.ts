import type { DataSource } from 'typeorm';
import { ACCOUNTS_EVENTS, ApiError, capabilitiesOf, decode, ExternalAccountCreatedData, RailConnectorConfig } from '@payments/contracts';
import { EventEnvelope, recordInInbox } from '@payments/eventsourcing';
import { EventBus, serviceTopic, SubscriptionHandle } from '@payments/messaging';
import { BackgroundWork, subscriptionWork } from '@payments/runtime';
import type { RailOrder } from '../rail-connector';
import { beneficiaryOf, Rails } from '../rails';

export const PRENOTE_REQUESTS_CONSUMER = 'payments.rails.prenotes';

/** What a created account asks of the rails: a prenote through a connector that verifies accounts, or an operator's attention. */
export type PrenoteDecision =
  | { action: 'SUBMIT'; connectorId: string; order: RailOrder }
  | { action: 'NO_VERIFYING_RAIL'; connectorId: string | null; reason: string };

/** The prenote's payment id: one per account, so a repeated submission finds the first (Rails.submit is idempotent by it). */
export const prenotePaymentId = (externalAccountId: string) => `Prenote:${externalAccountId}`;

/**
 * Which created accounts get a prenote: production accounts whose verification is PAYOUT_RAIL (sandbox ones are
 * verified by a timer, OPERATOR_APPROVAL ones by an operator). The first configured connector with account validation
 * routing the account's currency sends it; none: the account would wait unseen, so an operator is told.
 * Null: not ours.
 */
export function prenoteOrderFor(account: ExternalAccountCreatedData, connectors: readonly RailConnectorConfig[]): PrenoteDecision | null {
  if (account.mode !== 'PRODUCTION' || account.sandbox || account.verificationMethod !== 'PAYOUT_RAIL') return null;
  for (const connector of connectors) {
    const route = connector.routes.find((r) => r.currency === account.currency);
    if (!route || !capabilitiesOf(connector).accountValidation) continue;
    const order: RailOrder = {
      paymentId: prenotePaymentId(account.externalAccountId),
      platformId: account.platformId,
      mode: account.mode,
      kind: 'PRENOTE',
      paymentRail: route.paymentRail, // ACH: a NACHA connector routes nothing else
      currency: account.currency,
      amount: 0,
      externalAccountId: account.externalAccountId,
      accountInfo: account.accountInfo,
      beneficiary: beneficiaryOf(account.accountInfo),
      reference: prenoteReference(account.externalAccountId),
    };
    return { action: 'SUBMIT', connectorId: connector.id, order };
  }
  return { action: 'NO_VERIFYING_RAIL', connectorId: null, reason: `no configured rail connector verifies ${account.currency} accounts (account validation: ACH prenotes on a NACHA connector)` };
}

/** 15 hex digits of the account's uuid, its random end (a uuidv7 begins with the clock): NACHA's individual id width. */
function prenoteReference(externalAccountId: string): string {
  return externalAccountId.replace(/^ExternalAccount:/, '').replace(/-/g, '').slice(-15).toUpperCase();
}

/**
 * Sends a prenote for each production account created with verificationMethod PAYOUT_RAIL (accounts topic,
 * ExternalAccountCreated.v1). Its outcome comes back through RailOutcomes' applyToPrenote (rails.open.ts), which
 * records the account's rail verification: VERIFIED when no return came by its settlesAt, FAILED on a return.
 */
export class PrenoteRequests {
  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly rails: Rails,
  ) {}

  subscribe(bus: EventBus): Promise<SubscriptionHandle> {
    return bus.subscribe({ group: PRENOTE_REQUESTS_CONSUMER, topics: [serviceTopic('accounts')], handler: (e) => this.handle(e) });
  }

  async handle(envelope: EventEnvelope): Promise<void> {
    const event = decode(ACCOUNTS_EVENTS, envelope);
    if (event?.type !== 'ExternalAccountCreated.v1') return; // unknown, internal or not ours
    let decision = prenoteOrderFor(event.data, [...this.rails.connectors.values()].map((c) => c.config));
    if (!decision) return;
    if (decision.action === 'SUBMIT') {
      try {
        this.rails.validate(decision.connectorId, decision.order);
      } catch (error) {
        // An account the rail cannot address (a name NACHA cannot write…) can never be prenoted: an operator decides.
        if (!(error instanceof ApiError)) throw error;
        decision = { action: 'NO_VERIFYING_RAIL', connectorId: decision.connectorId, reason: `connector ${decision.connectorId} cannot send this account's prenote: ${error.message}` };
      }
    }
    if (decision.action === 'SUBMIT') {
      // Rails.submit opens its own transaction; the inbox row commits inside it, with the prenote's rail_payments row.
      // A redelivery before that commit submits again, which is safe: submit is idempotent by paymentId (it finds the
      // row and only re-runs this callback, whose inbox insert is then a no-op).
      await this.rails.submit(decision.connectorId, decision.order, async (tx) => {
        await recordInInbox(tx, this.schema, PRENOTE_REQUESTS_CONSUMER, event.eventId);
      });
      return;
    }
    const { reason, connectorId } = decision;
    const { externalAccountId, platformId, currency } = event.data;
    await this.dataSource.transaction(async (tx) => {
      // Once per event: a redelivery after the rails' configuration changed does not add a contradicting record.
      if (!(await recordInInbox(tx, this.schema, PRENOTE_REQUESTS_CONSUMER, event.eventId))) return;
      await this.rails.exceptions.record(tx, {
        exceptionId: `RailException:NoVerifyingRail:${externalAccountId}`,
        // The table needs a connector: '-' is none (connector ids begin with a letter or digit).
        connectorId: connectorId ?? '-',
        paymentId: prenotePaymentId(externalAccountId),
        kind: 'NO_VERIFYING_RAIL',
        message: `external account ${externalAccountId} waits for a payout rail's verification: ${reason} (configure a connector that verifies ${currency} accounts; it stays unverified until then)`,
        detail: { externalAccountId, platformId, currency },
      });
    });
  }
}

/** The consumer as the service's background work (started and stopped with the other subscriptions). */
export function prenoteRequestsWork(rails: Rails, options: { dataSource: DataSource; schema: string; bus: EventBus }): BackgroundWork {
  const consumer = new PrenoteRequests(options.dataSource, options.schema, rails);
  return subscriptionWork(() => consumer.subscribe(options.bus));
}
