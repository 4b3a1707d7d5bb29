import type { DataSource } from 'typeorm';
import { fold } from '@payments/eventsourcing';
import { PostgresEventStore } from '@payments/eventsourcing';
import { ledgerAccountDecider } from './ledger-account.decider';
import { LedgerAccountEvent } from './ledger-account.events';

export interface LedgerViolation {
  rule: 'ENTRY_UNBALANCED' | 'CURRENCY_UNBALANCED' | 'BALANCE_MISMATCH' | 'FOLD_MISMATCH' | 'OVERDRAWN';
  subject: string;
  detail: string;
}

/**
 * The ledger's invariants, checked from scratch (tests run it after every scenario; operators via
 * `npm run admin -- ledger:check`): every entry and every currency sums to zero, each stored balance equals the sum
 * of its postings and the fold of its events, and no customer or platform account is below zero.
 */
export async function checkLedger(dataSource: DataSource, store: PostgresEventStore): Promise<LedgerViolation[]> {
  const violations: LedgerViolation[] = [];
  const entries = await dataSource.query(`SELECT entry_id, sum(amount)::text AS s FROM journal_postings GROUP BY entry_id HAVING sum(amount) <> 0`);
  for (const e of entries) violations.push({ rule: 'ENTRY_UNBALANCED', subject: e.entry_id, detail: `sums to ${e.s}` });
  const currencies = await dataSource.query(`SELECT platform_id, mode, currency, sum(amount)::text AS s FROM journal_postings GROUP BY 1, 2, 3 HAVING sum(amount) <> 0`);
  for (const c of currencies) violations.push({ rule: 'CURRENCY_UNBALANCED', subject: `${c.platform_id}/${c.mode}/${c.currency}`, detail: `sums to ${c.s}` });
  const accounts: { account_id: string; owner: string; total: string; held: string; postings: string }[] = await dataSource.query(
    `SELECT a.account_id, a.owner, a.total::text, a.held::text, COALESCE(sum(p.amount), 0)::text AS postings
       FROM ledger_accounts a LEFT JOIN journal_postings p ON p.account_id = a.account_id GROUP BY a.account_id`,
  );
  for (const a of accounts) {
    if (a.total !== a.postings) violations.push({ rule: 'BALANCE_MISMATCH', subject: a.account_id, detail: `stored ${a.total}, postings ${a.postings}` });
    if (a.owner !== 'SYSTEM' && (Number(a.total) < 0 || Number(a.total) - Number(a.held) < 0)) violations.push({ rule: 'OVERDRAWN', subject: a.account_id, detail: `total ${a.total}, held ${a.held}` });
    const state = fold(ledgerAccountDecider, (await store.readStream(dataSource, a.account_id)) as unknown as LedgerAccountEvent[]);
    if (state.status !== 'OPEN' || String(state.total) !== a.total || String(state.held) !== a.held) {
      violations.push({ rule: 'FOLD_MISMATCH', subject: a.account_id, detail: `events fold to ${state.status === 'OPEN' ? `${state.total}/${state.held}` : 'nothing'}, stored ${a.total}/${a.held}` });
    }
  }
  return violations;
}
