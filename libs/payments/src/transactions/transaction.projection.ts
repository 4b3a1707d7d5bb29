import type { EntityManager } from 'typeorm';
import type { TransactionDestination, TransactionSource } from '@payments/contracts';
import type { Statement } from '@payments/eventsourcing';
import { ExistingTransaction, TransactionState } from './transaction.state';
import { listKeyOf } from './transaction-list-key';
import { toTransaction } from './transaction.view';

/** A side's account identifier (GET /transactions filters): the account id, or the UMA address; none for realtime funding. */
const accountIdentifierOf = (side: TransactionSource | TransactionDestination): string | null =>
  'accountId' in side ? side.accountId : 'umaAddress' in side ? side.umaAddress : null;

/**
 * The transactions read model (the API body plus the columns tenancy and list filters use) for several transactions
 * as one statement (a group commit's): each transaction's latest state in `states`, since a row may be upserted only
 * once per statement. `where`: a condition on the rows (IF_APPENDED when sent alongside an append). Answers the
 * statement (none when there is no transaction) and those latest states.
 */
export function transactionRows(states: readonly TransactionState[], where = 'true'): { statement?: Statement; latest: ExistingTransaction[] } {
  const latest = new Map<string, ExistingTransaction>();
  for (const state of states) if (state.status !== 'NONE') latest.set(state.transactionId, state);
  const rows = [...latest.values()];
  if (rows.length === 0) return { latest: rows };
  const column = <T>(pick: (s: ExistingTransaction) => T) => rows.map(pick);
  const statement = {
    sql: `INSERT INTO transactions (transaction_id, platform_id, mode, type, status, customer_id, platform_customer_id, sender_identifier, receiver_identifier, reference, quote_id, body, created_at, updated_at, list_key)
     SELECT r.transaction_id, r.platform_id, r.mode, r.type, r.status, r.customer_id, r.platform_customer_id, r.sender_identifier, r.receiver_identifier, r.reference, r.quote_id, r.body::jsonb, r.created_at, r.updated_at, r.list_key
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::timestamptz[], $14::timestamptz[], $15::text[])
         AS r(transaction_id, platform_id, mode, type, status, customer_id, platform_customer_id, sender_identifier, receiver_identifier, reference, quote_id, body, created_at, updated_at, list_key)
      WHERE ${where}
     ON CONFLICT (transaction_id) DO UPDATE SET status = excluded.status, body = excluded.body, updated_at = excluded.updated_at`,
    params: [
      column((s) => s.transactionId), column((s) => s.platformId), column((s) => s.mode), column((s) => s.type), column((s) => s.status),
      column((s) => s.customerId), column((s) => s.platformCustomerId ?? null), column((s) => accountIdentifierOf(s.source)), column((s) => accountIdentifierOf(s.destination)),
      column((s) => s.reference), column((s) => s.quoteId), column((s) => JSON.stringify(toTransaction(s))), column((s) => s.createdAt), column((s) => s.updatedAt),
      column((s) => listKeyOf(s.createdAt, s.transactionId)),
    ],
  };
  return { statement, latest: rows };
}

/** `transactionRows` written on its own, in `tx`. */
export async function projectTransactions(tx: EntityManager, states: readonly TransactionState[]): Promise<ExistingTransaction[]> {
  const { statement, latest } = transactionRows(states);
  if (statement) await tx.query(statement.sql, [...statement.params]);
  return latest;
}
