import type { EntityManager } from 'typeorm';
import type { Projection, RecordedEvent } from '@payments/eventsourcing';
import { LedgerAccountEvent } from './ledger-account.events';
import { LedgerAccountState } from './ledger-account.state';

/** One account's events of a command and its state after them. */
export interface LedgerAccountWritten {
  events: readonly RecordedEvent<LedgerAccountEvent>[];
  state: LedgerAccountState;
}

/**
 * `ledger_accounts` (balances) and `journal_postings` (every leg), in the command's transaction. The table's CHECK
 * constraint is a second guard: a customer or platform balance below zero cannot be stored even if a rule broke.
 * Set-based: an entry's legs are one INSERT of postings and one UPDATE of balances, however many legs it has.
 */
export async function projectLedgerAccounts(tx: EntityManager, written: readonly LedgerAccountWritten[]): Promise<void> {
  const open = written.filter((w) => w.state.status === 'OPEN').map((w) => ({ ...w, state: w.state as Extract<LedgerAccountState, { status: 'OPEN' }> }));
  if (open.length === 0) return;
  const opened = open.flatMap((w) => w.events.flatMap((e) => (e.type === 'LedgerAccountOpened.v1' ? [e.data] : [])));
  if (opened.length > 0) {
    await tx.query(
      `INSERT INTO ledger_accounts (account_id, platform_id, mode, owner, customer_id, currency, purpose, created_at, updated_at)
       SELECT a, p, m, o, c, cur, pur, t, t FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[]) AS u(a, p, m, o, c, cur, pur, t)
       ON CONFLICT (account_id) DO NOTHING`,
      [opened.map((d) => d.accountId), opened.map((d) => d.platformId), opened.map((d) => d.mode), opened.map((d) => d.owner), opened.map((d) => d.customerId ?? null), opened.map((d) => d.currency), opened.map((d) => d.purpose), opened.map((d) => d.openedAt)],
    );
  }
  const postings = open.flatMap(({ events, state }) => events.flatMap((e) => (e.type === 'PostingRecorded.v1' ? [{ d: e.data, state }] : [])));
  if (postings.length > 0) {
    await tx.query(
      `INSERT INTO journal_postings (entry_id, account_id, platform_id, mode, currency, amount, kind, reference, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::timestamptz[])`,
      [
        postings.map((p) => p.d.entryId), postings.map((p) => p.state.accountId), postings.map((p) => p.state.platformId), postings.map((p) => p.state.mode),
        postings.map((p) => p.state.currency), postings.map((p) => p.d.amount), postings.map((p) => p.d.kind), postings.map((p) => p.d.reference), postings.map((p) => p.d.at),
      ],
    );
  }
  const at = (events: readonly RecordedEvent<LedgerAccountEvent>[]) => {
    const data = events[events.length - 1]?.data;
    return data && 'at' in data ? data.at : null;
  };
  await tx.query(
    `UPDATE ledger_accounts a SET total = u.total, held = u.held, updated_at = COALESCE(u.at, a.updated_at)
       FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[]) AS u(account_id, total, held, at)
      WHERE a.account_id = u.account_id`,
    [open.map((w) => w.state.accountId), open.map((w) => w.state.total), open.map((w) => w.state.held), open.map((w) => at(w.events))],
  );
}

/** The projection of one account's command (holds, opening): the same statements for one account. */
export const projectLedgerAccount: Projection<EntityManager, LedgerAccountState, LedgerAccountEvent> = (tx, events, state) => projectLedgerAccounts(tx, [{ events, state }]);
