import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { LedgerAccountEvent } from './ledger-account.events';
import { LedgerAccountState } from './ledger-account.state';

/**
 * `ledger_accounts` (balances) and `journal_postings` (every leg), in the command's transaction. The table's CHECK
 * constraint is a second guard: a customer or platform balance below zero cannot be stored even if a rule broke.
 */
export const projectLedgerAccount: Projection<EntityManager, LedgerAccountState, LedgerAccountEvent> = async (tx, events, state) => {
  if (state.status !== 'OPEN') return;
  for (const event of events) {
    if (event.type === 'LedgerAccountOpened.v1') {
      const d = event.data;
      await tx.query(
        `INSERT INTO ledger_accounts (account_id, platform_id, mode, owner, customer_id, currency, purpose, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (account_id) DO NOTHING`,
        [d.accountId, d.platformId, d.mode, d.owner, d.customerId ?? null, d.currency, d.purpose, d.openedAt],
      );
    } else if (event.type === 'PostingRecorded.v1') {
      const d = event.data;
      await tx.query(
        `INSERT INTO journal_postings (entry_id, account_id, platform_id, mode, currency, amount, kind, reference, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [d.entryId, state.accountId, state.platformId, state.mode, state.currency, d.amount, d.kind, d.reference, d.at],
      );
    }
  }
  const at = events[events.length - 1]?.data && 'at' in events[events.length - 1].data ? (events[events.length - 1].data as { at: string }).at : undefined;
  await tx.query(`UPDATE ledger_accounts SET total = $2, held = $3, updated_at = COALESCE($4, updated_at) WHERE account_id = $1`, [state.accountId, state.total, state.held, at ?? null]);
};
