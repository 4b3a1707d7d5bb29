import { DomainError } from '@payments/eventsourcing';
import type { QuoteEvent } from './quote.events';
import type { QuoteState } from './quote.state';

/** Payments reports the quote's transaction COMPLETED. */
export interface CompleteQuote {
  type: 'CompleteQuote';
  now: string;
}

/** Payments reports the quote's transaction FAILED (also after a completion: a returned payout). */
export interface FailQuote {
  type: 'FailQuote';
  failureReason: string;
  now: string;
}

/** Fired by the expiry timer: only unexecuted quotes expire; after execution it is a no-op. */
export interface ExpireQuote {
  type: 'ExpireQuote';
  now: string;
}

export function completeQuote(c: CompleteQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status === 'COMPLETED') return [];
  if (state.status !== 'PROCESSING') return new DomainError('INVALID_STATE_TRANSITION', `a ${state.status} quote cannot complete`);
  return [{ type: 'QuoteCompleted.v1', data: { quoteId: state.quoteId, transactionId: state.transactionId, completedAt: c.now } }];
}

export function failQuote(c: FailQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status === 'FAILED') return [];
  if (state.status !== 'PROCESSING' && state.status !== 'COMPLETED') return new DomainError('INVALID_STATE_TRANSITION', `a ${state.status} quote cannot fail`);
  return [{ type: 'QuoteFailed.v1', data: { quoteId: state.quoteId, failureReason: c.failureReason, failedAt: c.now } }];
}

export function expireQuote(c: ExpireQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status === 'NONE') return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
  if (state.status !== 'PENDING' && state.status !== 'PENDING_AUTHORIZATION') return [];
  if (Date.parse(c.now) < Date.parse(state.expiresAt)) return new DomainError('QUOTE_NOT_EXPIRED', `the quote is valid until ${state.expiresAt}`);
  return [{ type: 'QuoteExpired.v1', data: { quoteId: state.quoteId, expiredAt: c.now } }];
}
