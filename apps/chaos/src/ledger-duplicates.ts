import type { CheckContext, Violation } from './checks';

/**
 * No effect twice on any ledger account: customers', platforms' and system accounts, every currency, both modes.
 * Every posting names the resource it is for (`reference`); one effect of a resource on an account is one entry
 * (its id derived from the resource and the step: `<transaction>/send`, `<card transaction>/pull/<n>`,
 * `<operation>/fiat`). Two entries of one kind, for one resource, moving the same amount on the same account are
 * that effect twice (the workload's amounts are unique, so no two legitimate effects of a resource coincide).
 * Reversals reference the entry they reverse, so a reversal made twice shows the same way.
 */
export async function checkLedgerDuplicates(ctx: CheckContext): Promise<Violation[]> {
  const { rows: seen } = await ctx.db.query<{ owners: string[]; n: number }>(`SELECT array_agg(DISTINCT a.owner ORDER BY a.owner) AS owners, count(*)::int AS n FROM accounts.journal_postings p JOIN accounts.ledger_accounts a USING (account_id)`);
  // The check reads every posting; with none of the system side in them it would pass for want of postings.
  if (!seen[0].owners?.includes('SYSTEM') || !seen[0].owners?.includes('CUSTOMER')) return [{ check: 'duplicated', message: `the ledger holds ${seen[0].n} postings on ${seen[0].owners?.join(', ') || 'no'} accounts: nothing to check duplicates on` }];
  const { rows } = await ctx.db.query<{ account_id: string; owner: string; currency: string; amount: string; kind: string; reference: string; entries: string[] }>(
    `SELECT p.account_id, a.owner, p.currency, p.amount::text AS amount, p.kind, p.reference, array_agg(DISTINCT p.entry_id ORDER BY p.entry_id) AS entries
       FROM accounts.journal_postings p JOIN accounts.ledger_accounts a USING (account_id)
      GROUP BY p.account_id, a.owner, p.currency, p.amount, p.kind, p.reference
     HAVING count(DISTINCT p.entry_id) > 1`,
  );
  return rows.map((r) => ({ check: 'duplicated', message: `${r.owner} account ${r.account_id}: ${r.entries.length} ${r.kind} entries of ${r.amount} ${r.currency} for ${r.reference}: ${r.entries.join(', ')}` }));
}
