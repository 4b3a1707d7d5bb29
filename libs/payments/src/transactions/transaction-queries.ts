import type { DataSource } from 'typeorm';
import { ApiError, CallerContext, decodeCursor, encodeCursor, invalidInput, isTransactionId, ListTransactionsQuery, Page, Transaction, TransactionLedger } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { keysetPage, LedgerClient, SqlWhere } from '@payments/runtime';
import { parseUmaAddress } from '@payments/uma';
import { isLegacyCursorKey } from './transaction-list-key';

type Scope = Pick<CallerContext, 'platformId' | 'mode'>;
const notFound = () => new ApiError('TRANSACTION_NOT_FOUND', 'transaction not found');
/** UMA addresses are stored lower case (they compare case-insensitively); account ids as they are. */
const identifier = (value: string | undefined) => (value === undefined ? undefined : (parseUmaAddress(value)?.address ?? value));

/**
 * GET /transactions and /transactions/{id}, read from the `transactions` read model, scoped to the caller: payments'
 * own transactions (INCOMING, OUTGOING: the inline projection) and card transactions (CARD: from the cards service's
 * events, card-transactions.consumer.ts), each row's `body` as the API answers it.
 */
export class TransactionQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ledger: LedgerClient,
  ) {}

  async get(caller: Scope, transactionId: string): Promise<Transaction> {
    const rows = isTransactionId(transactionId)
      ? await queryRows<{ body: Transaction }>(this.dataSource, `SELECT body FROM transactions WHERE transaction_id = $1 AND platform_id = $2 AND mode = $3`, [transactionId, caller.platformId, caller.mode])
      : [];
    if (!rows[0]) throw notFound();
    return rows[0].body;
  }

  /**
   * GET /transactions/{id}/ledger-postings. Payments says whether the transaction is the caller's (404 otherwise, as
   * GET /transactions/{id}); accounts, which owns the ledger, answers what it posted and held under the transaction's
   * id in the caller's platform and mode. Neither reads the other's schema; a transaction not posted yet is empty lists.
   */
  async ledgerOf(caller: CallerContext, transactionId: string): Promise<TransactionLedger> {
    await this.get(caller, transactionId);
    return this.ledger.ofReference(caller, { reference: transactionId });
  }

  /** The published filters, combined; an account identifier is an account id or a UMA address (any case). */
  async list(caller: Scope, query: ListTransactionsQuery): Promise<Page<Transaction>> {
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
    // Creation order whatever the id's prefix (`list_key`: createdAt, then id; transaction-list-key.ts).
    return keysetPage<{ list_key: string; body: Transaction }, Transaction>({
      db: this.dataSource,
      from: `FROM transactions WHERE ${where.sql}`,
      params: where.params,
      keyColumn: 'list_key',
      order: query.sortOrder ?? 'desc',
      limit: query.limit,
      cursor: query.cursor === undefined ? undefined : await this.currentCursor(caller, query.cursor),
      select: 'list_key, body',
      toItem: (row) => row.body,
      keyOf: (row) => row.list_key,
    });
  }

  /** A cursor issued before `list_key` names the last transaction id it returned: it goes on from that row's key. */
  private async currentCursor(caller: Scope, cursor: string): Promise<string> {
    const after = decodeCursor(cursor); // 400 INVALID_INPUT when it is not a cursor at all
    if (!isLegacyCursorKey(after)) return cursor;
    const [row] = await queryRows<{ list_key: string }>(this.dataSource, `SELECT list_key FROM transactions WHERE transaction_id = $1 AND platform_id = $2 AND mode = $3`, [after, caller.platformId, caller.mode]);
    if (!row) throw invalidInput('cursor', 'cursor is not valid for this list');
    return encodeCursor(row.list_key);
  }
}
