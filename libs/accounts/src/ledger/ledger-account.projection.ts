import { IF_APPENDED, type Statement } from '@payments/eventsourcing';
import { LedgerAccountEvent, LedgerAccountOpened, PostingRecorded } from './ledger-account.events';
import { LedgerAccountState } from './ledger-account.state';

/** One account's events of a command and its state after them (a group may hold several of one account: the last is its latest). */
export interface LedgerAccountWritten {
  events: readonly LedgerAccountEvent[];
  state: LedgerAccountState;
}

type OpenState = Extract<LedgerAccountState, { status: 'OPEN' }>;


/**
 * `ledger_accounts` (balances) and `journal_postings` (every leg) as statements sent in the append's own statement
 * (`withAlongside`, issue #30: no round trip of their own). The table's CHECK constraint is a second guard: a customer
 * or platform balance below zero cannot be stored even if a rule broke. Set-based whatever the number of legs and
 * commands: accounts opened here are inserted with their balances as folded (a sibling UPDATE would not see their
 * rows), postings in one INSERT, every other account's latest balances in one UPDATE (each row written once).
 */
export function ledgerAccountStatements(written: readonly LedgerAccountWritten[]): Statement[] {
  const latest = new Map<string, { state: OpenState; at: string | null }>();
  const opened = new Map<string, LedgerAccountOpened['data']>();
  const postings: { d: PostingRecorded['data']; state: OpenState }[] = [];
  for (const { events, state } of written) {
    if (state.status !== 'OPEN') continue;
    let at = latest.get(state.accountId)?.at ?? null;
    for (const e of events) {
      if (e.type === 'LedgerAccountOpened.v1') opened.set(e.data.accountId, e.data);
      if (e.type === 'PostingRecorded.v1') postings.push({ d: e.data, state });
      if ('at' in e.data) at = e.data.at;
    }
    latest.set(state.accountId, { state, at });
  }
  const statements: Statement[] = [];
  if (opened.size > 0) {
    const rows = [...opened.values()].map((d) => ({ d, now: latest.get(d.accountId)! }));
    statements.push({
      sql: `INSERT INTO ledger_accounts (account_id, platform_id, mode, owner, customer_id, currency, purpose, created_at, updated_at, total, held)
       SELECT a, p, m, o, c, cur, pur, t, coalesce(u, t), tot, h
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::timestamptz[], $10::bigint[], $11::bigint[]) AS x(a, p, m, o, c, cur, pur, t, u, tot, h)
        WHERE ${IF_APPENDED}
       ON CONFLICT (account_id) DO UPDATE SET total = excluded.total, held = excluded.held, updated_at = excluded.updated_at`,
      params: [
        rows.map((r) => r.d.accountId), rows.map((r) => r.d.platformId), rows.map((r) => r.d.mode), rows.map((r) => r.d.owner), rows.map((r) => r.d.customerId ?? null),
        rows.map((r) => r.d.currency), rows.map((r) => r.d.purpose), rows.map((r) => r.d.openedAt), rows.map((r) => r.now.at), rows.map((r) => r.now.state.total), rows.map((r) => r.now.state.held),
      ],
    });
  }
  if (postings.length > 0) {
    statements.push({
      sql: `INSERT INTO journal_postings (entry_id, account_id, platform_id, mode, currency, amount, kind, reference, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::timestamptz[])
        WHERE ${IF_APPENDED}`,
      params: [
        postings.map((p) => p.d.entryId), postings.map((p) => p.state.accountId), postings.map((p) => p.state.platformId), postings.map((p) => p.state.mode),
        postings.map((p) => p.state.currency), postings.map((p) => p.d.amount), postings.map((p) => p.d.kind), postings.map((p) => p.d.reference), postings.map((p) => p.d.at),
      ],
    });
  }
  const updated = [...latest.values()].filter(({ state }) => !opened.has(state.accountId));
  if (updated.length > 0) {
    statements.push({
      sql: `UPDATE ledger_accounts a SET total = u.total, held = u.held, updated_at = COALESCE(u.at, a.updated_at)
       FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[]) AS u(account_id, total, held, at)
      WHERE a.account_id = u.account_id AND ${IF_APPENDED}`,
      params: [updated.map((u) => u.state.accountId), updated.map((u) => u.state.total), updated.map((u) => u.state.held), updated.map((u) => u.at)],
    });
  }
  return statements;
}

/** The projection of one account's commands (holds, opening), for CommandRequest.projectAlongside. */
export const ledgerAccountAlongside = (items: readonly { events: readonly LedgerAccountEvent[]; stateAfter: LedgerAccountState }[]): Statement[] =>
  ledgerAccountStatements(items.map((i) => ({ events: i.events, state: i.stateAfter })));
