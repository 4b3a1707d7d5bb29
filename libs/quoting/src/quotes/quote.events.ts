import type { DomainEvent } from '@payments/eventsourcing';
import type { LockedCurrencySide, Mode, QuoteRateDetails } from '@payments/contracts';

/** Everything a quote locked at creation: the priced offer, as published. */
export interface QuoteTerms {
  quoteId: string;
  platformId: string;
  mode: Mode;
  /** Reserved at creation: the transaction an execution will create (payments uses this id). */
  transactionId: string;
  source: { sourceType: 'ACCOUNT'; accountId: string };
  destination: { destinationType: 'ACCOUNT'; accountId: string };
  /** The customer owning the source account, when it is a customer's. */
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
  createdAt: string;
  expiresAt: string;
}

export type QuoteCreated = DomainEvent<'QuoteCreated.v1', QuoteTerms>;
export type QuoteExpired = DomainEvent<'QuoteExpired.v1', { quoteId: string; expiredAt: string }>;

export type QuoteEvent = QuoteCreated | QuoteExpired;
