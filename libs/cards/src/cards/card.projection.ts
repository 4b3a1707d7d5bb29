import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { CardEvent } from './card.events';
import { CardState } from './card.state';
import { toCard } from './card.view';

/** The cards read model (list filters, Authorization Decisioning) and the funding-source bindings by account. */
export const projectCard: Projection<EntityManager, CardState, CardEvent> = async (tx, events, s) => {
  if (s.status === 'NONE') return;
  await tx.query(
    `INSERT INTO cards (card_id, platform_id, mode, cardholder_id, platform_card_id, state, currency, max_spend, bindings, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (card_id) DO UPDATE SET state = $6, max_spend = $8, bindings = $9, body = $10, updated_at = $12`,
    [s.cardId, s.platformId, s.mode, s.cardholderId, s.platformCardId, s.state, s.currency, s.maxSpendPerTransaction, JSON.stringify(s.fundingSources), JSON.stringify(toCard(s)), s.requestedAt, s.updatedAt],
  );
  if (!events.some((e) => e.type === 'CardIssueRequested.v1' || e.type === 'CardFundingSourcesReplaced.v1' || e.type === 'CardClosed.v1')) return;
  await tx.query(`DELETE FROM card_funding_sources WHERE card_id = $1`, [s.cardId]);
  for (const [position, b] of s.fundingSources.entries()) {
    await tx.query(`INSERT INTO card_funding_sources (card_id, account_id, funding_source_id, position, embedded_wallet) VALUES ($1, $2, $3, $4, $5)`, [s.cardId, b.accountId, b.fundingSourceId, position, b.embeddedWallet]);
  }
};
