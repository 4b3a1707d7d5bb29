import type { CallerContext, LedgerHold, LedgerHoldStatus, LedgerPosting, TransactionLedger } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { currencyObject } from '@payments/money';
import { parseReference } from './ledger-requests';

interface PostingRow {
  entry_id: string;
  account_id: string;
  currency: string;
  amount: string; // bigint: pg answers it as text
  kind: string;
  created_at: Date;
}

interface HoldRow {
  hold_id: string;
  account_id: string;
  currency: string;
  amount: string;
  placed_at: string;
  outcome: Exclude<LedgerHoldStatus, 'PENDING'> | null;
  closed_at: string | null;
}

/**
 * What the ledger holds under one reference (a transaction id), in the caller's platform and mode (LedgerRpc.ofReference).
 * Postings: the entries whose reference it is, and the reversals of those entries (a reversal's reference is the
 * entry it reverses, ledger.service.ts), both found through journal_postings_reference_idx. Holds: the ledger keeps
 * them only as events of the account's stream, so they are read there, through partial indexes on the placements'
 * reference and on the closes' (stream, hold id) (accounts.migrations.ts). Nothing here says whether the reference
 * names anything: that is its owner's to answer.
 */
export async function ledgerOfReference(db: SqlExecutor, caller: Pick<CallerContext, 'platformId' | 'mode'>, body: unknown): Promise<TransactionLedger> {
  const { reference } = parseReference(body);
  const scope = [reference, caller.platformId, caller.mode];
  const postings = await queryRows<PostingRow>(
    db,
    // Two index lookups by reference (an OR of the two would scan the table); a row is one (entry, account), so UNION
    // only guards against an entry that would be both.
    `WITH own AS (SELECT entry_id, account_id, currency, amount, kind, created_at FROM journal_postings WHERE reference = $1 AND platform_id = $2 AND mode = $3)
     SELECT entry_id, account_id, currency, amount::text AS amount, kind, created_at
       FROM (SELECT * FROM own
             UNION
             SELECT entry_id, account_id, currency, amount, kind, created_at FROM journal_postings
              WHERE reference IN (SELECT entry_id FROM own) AND kind = 'REVERSAL' AND platform_id = $2 AND mode = $3) p
      ORDER BY created_at, entry_id COLLATE "C", account_id COLLATE "C"`,
    scope,
  );
  const holds = await queryRows<HoldRow>(
    db,
    `SELECT p.data->>'holdId' AS hold_id, p.stream_id AS account_id, a.currency, p.data->>'amount' AS amount, p.data->>'at' AS placed_at,
            c.data->>'outcome' AS outcome, c.data->>'at' AS closed_at
       FROM events p
       JOIN ledger_accounts a ON a.account_id = p.stream_id AND a.platform_id = $2 AND a.mode = $3
       LEFT JOIN LATERAL (SELECT data FROM events WHERE stream_id = p.stream_id AND type = 'HoldClosed.v1' AND data->>'holdId' = p.data->>'holdId' LIMIT 1) c ON TRUE
      WHERE p.type = 'HoldPlaced.v1' AND p.data->>'reference' = $1
      ORDER BY p.data->>'at', p.data->>'holdId' COLLATE "C"`,
    scope,
  );
  return { data: postings.map(postingOf), holds: holds.map(holdOf), hasMore: false };
}

const postingOf = (r: PostingRow): LedgerPosting => ({
  entryId: r.entry_id,
  accountId: r.account_id,
  amount: { amount: Number(r.amount), currency: currencyObject(r.currency) },
  kind: r.kind,
  createdAt: new Date(r.created_at).toISOString(),
});

const holdOf = (r: HoldRow): LedgerHold => ({
  holdId: r.hold_id,
  accountId: r.account_id,
  amount: { amount: Number(r.amount), currency: currencyObject(r.currency) },
  status: r.outcome ?? 'PENDING',
  createdAt: new Date(r.placed_at).toISOString(),
  ...(r.closed_at ? { closedAt: new Date(r.closed_at).toISOString() } : {}),
});
