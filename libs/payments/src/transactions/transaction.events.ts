import type { DomainEvent } from '@payments/eventsourcing';
import type {
  Catalogued,
  MinorUnitAmount,
  PAYMENTS_EVENTS,
  TransactionApprovedData,
  TransactionCompletedData,
  TransactionCreatedData,
  TransactionFailedData,
  TransactionPublicTerms,
  TransactionStatusChangedData,
} from '@payments/contracts';
import type { LedgerPlan } from '../saga/ledger-plan';
import type { RailScript } from '../saga/rail-script';

/** An amount in a currency's smallest unit; the view shows the currency as the Currency object. */
export type Amount = MinorUnitAmount;

/**
 * Everything fixed when a transaction is created: its public terms (declared in libs/contracts, PAYMENTS_EVENTS),
 * its ledger plan and what its rail will do. The plan and the rail are the saga's: they are never published.
 */
export interface TransactionTerms extends TransactionPublicTerms {
  plan: LedgerPlan;
  rail: RailScript;
}

export type TransactionCreated = DomainEvent<'TransactionCreated.v1', TransactionTerms & Pick<TransactionCreatedData, 'status' | 'failureReason'>>;
/** Internal: the sending account's hold is in place: the payout can start. */
export type TransactionFundsHeld = DomainEvent<'TransactionFundsHeld.v1', { transactionId: string; at: string }>;
/** Internal: a production payment was handed to its rail connector, with the rail's reference for it. */
export type TransactionRailSubmitted = DomainEvent<'TransactionRailSubmitted.v1', { transactionId: string; at: string; connectorId: string; railReference: string }>;
export type TransactionCompleted = DomainEvent<'TransactionCompleted.v1', TransactionCompletedData>;
/** The platform approved an incoming payment (POST /approve), or its sandbox approval window ended unanswered. */
export type TransactionApproved = DomainEvent<'TransactionApproved.v1', TransactionApprovedData>;
export type TransactionFailed = DomainEvent<'TransactionFailed.v1', TransactionFailedData>;
/** The public contract (libs/contracts): appended with every status change, its creation included. */
export type TransactionStatusChanged = DomainEvent<'TransactionStatusChanged.v1', TransactionStatusChangedData>;

export type TransactionEvent = TransactionCreated | TransactionFundsHeld | TransactionRailSubmitted | TransactionApproved | TransactionCompleted | TransactionFailed | TransactionStatusChanged;

/** Every event of the stream is declared in the payments catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof PAYMENTS_EVENTS, TransactionEvent> = true;
