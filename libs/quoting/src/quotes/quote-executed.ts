import { QuoteExecuted, QuoteTerms, requestExtras } from './quote.events';
import { toQuote } from './quote.view';

/** The hand-off event, carrying the quote as the API shows it once PROCESSING (pure: used by the deciders). */
export function executedEvent(terms: QuoteTerms, executedAt: string, funding: 'ACCOUNT' | 'REALTIME_FUNDING'): QuoteExecuted {
  const quote = toQuote({ ...terms, status: 'PROCESSING', executedAt, funding });
  return { type: 'QuoteExecuted.v1', data: { quoteId: terms.quoteId, quote, platformId: terms.platformId, mode: terms.mode, customerId: terms.customerId, executedAt, funding, ...requestExtras(terms) } };
}
