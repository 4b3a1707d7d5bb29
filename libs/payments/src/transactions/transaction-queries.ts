import type { DataSource } from 'typeorm';
import { ApiError, CallerContext, isTransactionId, ListTransactionsQuery, Page, Transaction } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { keysetPage, SqlWhere } from '@payments/runtime';

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;
const notFound = () => new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');

/** GET /transactions and /transactions/{id}, read from the `transactions` projection, scoped to the caller. */
export class TransactionQueries {
  constructor(private readonly dataSource: DataSource) {}

  async get(caller: Scope, transactionId: string): Promise<Transaction> {
    const rows = isTransactionId(transactionId)
      ? await queryRows<{ body: Transaction }>(this.dataSource, `SELECT body FROM transactions WHERE transaction_id = $1 AND platform_id = $2 AND mode = $3`, [transactionId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  list(caller: Scope, query: ListTransactionsQuery): Promise<Page<Transaction>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('customer_id = ?', query.customerId)
      .add('status = ?', query.status)
      .add('type = ?', query.type)
      .add('created_at >= ?::timestamptz', query.startDate)
      .add('created_at < ?::timestamptz', query.endDate);
    if (query.accountId !== undefined) {
      where.params.push(query.accountId);
      where.add(`(source_account_id = $${where.params.length} OR destination_account_id = $${where.params.length})`);
    }
    return keysetPage<{ transaction_id: string; body: Transaction }, Transaction>({
      db: this.dataSource,
      from: `FROM transactions WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'transaction_id',
      order: query.sortOrder ?? 'desc',
      limit: query.limit,
      cursor: query.cursor,
      select: 'transaction_id, body',
      toItem: (row) => row.body,
      keyOf: (row) => row.transaction_id,
    });
  }
}
