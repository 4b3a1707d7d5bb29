import type { DomainEvent } from '@payments/eventsourcing';
import type { LockedCurrencySide, Mode, PaymentInstructions, PurposeOfPayment, Quote, QuoteDestination, QuoteRateDetails, QuoteSource, ScaChallenge, ScaFactor } from '@payments/contracts';

/** Everything a quote locked at creation: the priced offer, as published. */
export interface QuoteTerms extends QuoteRequestExtras {
  quoteId: string;
  platformId: string;
  mode: Mode;
  /** Reserved at creation: the transaction an execution will create (payments uses this id). */
  transactionId: string;
  source: QuoteSource;
  destination: QuoteDestination;
  /** The customer paying: the source account's owner or the realtime-funding customer; null for a platform account. */
  customerId: string | null;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  rateDetails: QuoteRateDetails;
  /** The mid rate the quote was priced at (destination major units per source major unit), exact. */
  midRate: string;
  description: string | null;
  /** Execute as soon as the quote is open (after SCA, when required). */
  immediatelyExecute: boolean;
  /** REALTIME_FUNDING sources: where the customer pays in (shown once SCA, if any, is done). */
  paymentInstructions: PaymentInstructions[] | null;
  /** The SCA rounds this quote needs, in order (empty outside SCA regions), e.g. CURRENCY_CONVERSION then PAYOUT. */
  scaPurposes: string[];
  createdAt: string;
  expiresAt: string;
}

/**
 * Fields of the published QuoteRequest that the published Quote does not show: kept on the quote (present only when
 * the request had them, so older events simply lack them) and handed to payments in QuoteExecuted.v1.
 */
export interface QuoteRequestExtras {
  remittanceInformation?: string;
  purposeOfPayment?: PurposeOfPayment;
  senderCustomerInfo?: Record<string, unknown>;
}

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
export type QuoteAuthorized = DomainEvent<'QuoteAuthorized.v1', { quoteId: string; authorizedAt: string }>;
/** The hand-off to payments (QUOTE_EXECUTED_EVENT in contracts): carries the quote as the API shows it now. */
export type QuoteExecuted = DomainEvent<
  'QuoteExecuted.v1',
  { quoteId: string; quote: Quote; platformId: string; mode: Mode; customerId: string | null; executedAt: string; funding: 'ACCOUNT' | 'REALTIME_FUNDING' } & QuoteRequestExtras
>;
export type QuoteCompleted = DomainEvent<'QuoteCompleted.v1', { quoteId: string; transactionId: string; completedAt: string }>;
export type QuoteFailed = DomainEvent<'QuoteFailed.v1', { quoteId: string; failureReason: string; failedAt: string }>;
export type QuoteExpired = DomainEvent<'QuoteExpired.v1', { quoteId: string; expiredAt: string }>;

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
