import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { QuoteEvent } from './quote.events';
import { QuoteState } from './quote.state';
import { toQuote } from './quote.view';

/** The quotes read model: the API body plus the columns tenancy and lists filter on. */
export const projectQuote: Projection<EntityManager, QuoteState, QuoteEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO quotes (quote_id, platform_id, mode, status, body, created_at, expires_at, updated_at, customer_id, pricing)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8, $9)
     ON CONFLICT (quote_id) DO UPDATE SET status = $4, body = $5, updated_at = now()`,
    [state.quoteId, state.platformId, state.mode, state.status, JSON.stringify(toQuote(state)), state.createdAt, state.expiresAt, state.customerId, state.pricing ? JSON.stringify(state.pricing) : null],
  );
};
