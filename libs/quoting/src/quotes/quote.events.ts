import type { DomainEvent } from '@payments/eventsourcing';
import type { FeeScheduleRef } from '../rates/fee-schedule';
import type {
  Catalogued,
  PaymentInstructions,
  QuoteAuthorizedData,
  QuoteCompletedData,
  QuoteCreatedData,
  QuoteExecutedData,
  QuoteExpiredData,
  QuoteFailedData,
  QuoteRequestExtras,
  QUOTING_EVENTS,
  RatePricing,
  ScaChallenge,
  ScaFactor,
} from '@payments/contracts';

/**
 * Everything a quote locked at creation: the priced offer. Its public part is declared in libs/contracts
 * (QuoteCreatedData, QUOTING_EVENTS); the pricing's mid rate, the SCA plan and the payment instructions stay here.
 */
export interface QuoteTerms extends QuoteCreatedData {
  /** The mid rate the quote was priced at (destination major units per source major unit), exact. */
  midRate: string;
  /** The service fee schedule and version that priced it (null: none configured, no service fee); absent before #28. */
  serviceFeeSchedule?: FeeScheduleRef | null;
  /** REALTIME_FUNDING sources: where the customer pays in (shown once SCA, if any, is done). */
  paymentInstructions: PaymentInstructions[] | null;
  /** The SCA rounds this quote needs, in order (empty outside SCA regions), e.g. CURRENCY_CONVERSION then PAYOUT. */
  scaPurposes: string[];
  /** What priced the mid rate: source, derivation, publication time (absent on quotes created before it was kept). */
  pricing?: RatePricing;
}

export type { QuoteRequestExtras } from '@payments/contracts';

/** Only the extras a request really carried (no undefined keys in events). */
export function requestExtras(source: QuoteRequestExtras): QuoteRequestExtras {
  return {
    ...(source.remittanceInformation !== undefined ? { remittanceInformation: source.remittanceInformation } : {}),
    ...(source.purposeOfPayment !== undefined ? { purposeOfPayment: source.purposeOfPayment } : {}),
    ...(source.senderCustomerInfo !== undefined ? { senderCustomerInfo: source.senderCustomerInfo } : {}),
  };
}

export type QuoteCreated = DomainEvent<'QuoteCreated.v1', QuoteTerms>;
export type ScaChallengeIssued = DomainEvent<'ScaChallengeIssued.v1', { challenge: ScaChallenge; round: number; issuedAt: string }>;
/** An authorization arrived after the challenge's expiresAt: refused, and a fresh challenge of the same round follows. */
export type ScaChallengeExpired = DomainEvent<'ScaChallengeExpired.v1', { challengeId: string; at: string }>;
export type ScaChallengeFailed = DomainEvent<'ScaChallengeFailed.v1', { challengeId: string; factor: ScaFactor; reason: string; at: string }>;
export type ScaChallengeCompleted = DomainEvent<'ScaChallengeCompleted.v1', { challengeId: string; factor: ScaFactor; at: string }>;
export type QuoteAuthorized = DomainEvent<'QuoteAuthorized.v1', QuoteAuthorizedData>;
/** The hand-off to payments (QUOTE_EXECUTED_EVENT in contracts): carries the quote as the API shows it now. */
export type QuoteExecuted = DomainEvent<'QuoteExecuted.v1', QuoteExecutedData>;
export type QuoteCompleted = DomainEvent<'QuoteCompleted.v1', QuoteCompletedData>;
export type QuoteFailed = DomainEvent<'QuoteFailed.v1', QuoteFailedData>;
export type QuoteExpired = DomainEvent<'QuoteExpired.v1', QuoteExpiredData>;

export type QuoteEvent =
  | QuoteCreated
  | ScaChallengeIssued
  | ScaChallengeExpired
  | ScaChallengeFailed
  | ScaChallengeCompleted
  | QuoteAuthorized
  | QuoteExecuted
  | QuoteCompleted
  | QuoteFailed
  | QuoteExpired;

/** Every event of the stream is declared in the quoting catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof QUOTING_EVENTS, QuoteEvent> = true;
