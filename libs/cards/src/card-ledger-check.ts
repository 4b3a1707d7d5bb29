import type { DataSource } from 'typeorm';
import { queryRows } from '@payments/eventsourcing';

export interface CardLedgerViolation {
  rule: 'CARD_NETWORK_MISMATCH';
  subject: string;
  detail: string;
}

/**
 * The cards side of the ledger invariants: for every card transaction, what its funding account gave the card network
 * in the ledger (postings referencing the transaction on that account) equals what the transaction says the network
 * holds for it (pulled, minus released, refunded and credited). Reversals of its entries (a return reversal) count for
 * it too: the ledger gives a reversal the reversed entry's id as its reference. `accounts` is the accounts service's database.
 */
export async function checkCardLedger(cards: DataSource, accounts: DataSource): Promise<CardLedgerViolation[]> {
  const rows = await queryRows<{ transaction_id: string; account_id: string; network_amount: string }>(
    cards,
    `SELECT transaction_id, account_id, network_amount::text FROM card_transactions WHERE account_id IS NOT NULL`,
  );
  if (rows.length === 0) return [];
  // The transaction's own entries reference it; a reversal of one of them (a return reversal) references the entry
  // it reverses, so it counts for the transaction of that entry.
  const posted = await queryRows<{ reference: string; account_id: string; total: string }>(
    accounts,
    `WITH own AS (SELECT entry_id, account_id, amount, reference FROM journal_postings WHERE reference = ANY($1)),
          reversed AS (SELECT e.reference, r.account_id, r.amount
                         FROM journal_postings r JOIN (SELECT DISTINCT entry_id, reference FROM own) e ON r.reference = e.entry_id
                        WHERE r.kind = 'REVERSAL')
     SELECT reference, account_id, sum(amount)::text AS total
       FROM (SELECT reference, account_id, amount FROM own UNION ALL SELECT reference, account_id, amount FROM reversed) p
      GROUP BY reference, account_id`,
    [rows.map((r) => r.transaction_id)],
  );
  const given = new Map(posted.map((p) => [`${p.reference}|${p.account_id}`, -Number(p.total)]));
  const violations: CardLedgerViolation[] = [];
  for (const r of rows) {
    const ledger = given.get(`${r.transaction_id}|${r.account_id}`) ?? 0;
    if (ledger !== Number(r.network_amount)) {
      violations.push({ rule: 'CARD_NETWORK_MISMATCH', subject: r.transaction_id, detail: `the card transaction says the network holds ${r.network_amount}, the funding account's postings say ${ledger}` });
    }
  }
  return violations;
}
