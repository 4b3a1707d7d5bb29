import type { QuoteTerms } from './quote.events';

/** A quote's state is a union on status: only an existing quote has terms; only an expired one has expiredAt. */
export type QuoteState =
  | { status: 'NONE' }
  | ({ status: 'PENDING' } & QuoteTerms)
  | ({ status: 'EXPIRED'; expiredAt: string } & QuoteTerms);
