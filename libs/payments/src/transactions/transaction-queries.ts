import type { DataSource } from 'typeorm';
import { ApiError, CallerContext, isTransactionId, ListTransactionsQuery, Page, Transaction } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { keysetPage, SqlWhere } from '@payments/runtime';
import { parseUmaAddress } from '@payments/uma';

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;
const notFound = () => new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
/** UMA addresses are stored lower case (they compare case-insensitively); account ids as they are. */
const identifier = (value: string | undefined) => (value === undefined ? undefined : (parseUmaAddress(value)?.address ?? value));

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

  /** The published filters, combined; an account identifier is an account id or a UMA address (any case). */
  list(caller: Scope, query: ListTransactionsQuery): Promise<Page<Transaction>> {
    const where = new SqlWhere()
      .add('platform_id = ?', caller.platformId)
      .add('mode = ?', caller.mode)
      .add('customer_id = ?', query.customerId)
      .add('platform_customer_id = ?', query.platformCustomerId)
      .add('sender_identifier = ?', identifier(query.senderAccountIdentifier))
      .add('receiver_identifier = ?', identifier(query.receiverAccountIdentifier))
      .add('? IN (sender_identifier, receiver_identifier)', identifier(query.accountIdentifier))
      .add('? IN (sender_identifier, receiver_identifier)', identifier(query.accountId))
      .add('reference = ?', query.reference)
      .add('status = ?', query.status)
      .add('type = ?', query.type)
      .add('created_at >= ?::timestamptz', query.startDate)
      .add('created_at <= ?::timestamptz', query.endDate);
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
