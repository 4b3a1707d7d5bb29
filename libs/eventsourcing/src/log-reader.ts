import { ident, queryPrepared, queryRows, SqlExecutor } from './sql';

/**
 * Where a reader of an append-only log stands: the last row it passed, in `(transaction_id, position)` order.
 *
 * Why not `position` alone: bigserial values are taken at INSERT time, and a transaction that took its xid later
 * can insert (take a lower position) earlier and commit later than one that took its xid first. A reader ordering
 * by position stores a checkpoint past rows that are still uncommitted and never sees them (measured: 124 events
 * lost in one burst). Rows are read only from transactions older than every running one
 * (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`): every such transaction has ended, and every
 * transaction that writes later gets an xid at or above that xmin, so it sorts after anything read now.
 * Ordering by xid first therefore never lets a later commit land behind the cursor.
 */
export interface LogCursor {
  /** xid8 of the writing transaction, as a decimal string. */
  transactionId: string;
  /** bigserial position, as a decimal string; breaks ties inside one transaction (its insert order). */
  position: string;
}

export const LOG_START: LogCursor = { transactionId: '0', position: '0' };

export interface LogTable {
  schema: string;
  table: string;
  positionColumn: string;
}

/** Rows carry their cursor as `log_transaction_id` (xid8 as text) next to their own columns. */
export type LogRow<TRow> = TRow & { log_transaction_id: string };

/** Adds a parameter to the statement being built and returns its placeholder (`$n`). */
export type BindParam = (value: unknown) => string;

/** What a read adds to the plain "rows after the cursor" (readLogAfter). */
export interface LogReadOptions {
  /** Narrows the rows (`AND topic = ${bind(topic)}`). */
  where?: (bind: BindParam) => string;
  /**
   * Start after the later of `after` and the cursor stored under this name in the log schema's `checkpoints`
   * (checkpoints.ts), looked up in the same statement: a reader that stores its checkpoint after each page needs no
   * statement to load it back, and sees what another process of its service stored.
   */
  checkpoint?: string;
  /**
   * A data-modifying statement (UPDATE, INSERT) that commits with the read as one statement: a consumer stores the
   * position of the page it handled with the read of the next one.
   */
  alsoWrite?: (bind: BindParam) => string;
}

/**
 * The one reader of every log (outbox relay, PostgreSQL-log bus consumers): committed rows after `after`, in cursor
 * order. The table needs an index on (<columns of `where`>, transaction_id, <position>) for this to stay an index
 * range scan as history grows.
 */
export async function readLogAfter<TRow>(
  db: SqlExecutor,
  log: LogTable,
  after: LogCursor,
  limit: number,
  options: LogReadOptions = {},
): Promise<LogRow<TRow>[]> {
  const pos = ident(log.positionColumn);
  const params: unknown[] = [after.transactionId, after.position, limit];
  const bind: BindParam = (value) => `$${params.push(value)}`;
  let cursor = '($1::xid8, $2::bigint)';
  if (options.checkpoint !== undefined) {
    // A row subquery (an InitPlan): the range below stays an index range scan.
    cursor = `(SELECT c.transaction_id, c.position FROM (
                 SELECT transaction_id, position FROM ${ident(log.schema)}.checkpoints WHERE name = ${bind(options.checkpoint)}::text
                 UNION ALL SELECT $1::xid8, $2::bigint) c
               ORDER BY c.transaction_id DESC, c.position DESC LIMIT 1)`;
  }
  const write = options.alsoWrite ? `WITH written AS (${options.alsoWrite(bind)}) ` : '';
  // Constant text per reader (its options decide the text, never the data): prepared once per connection.
  return queryPrepared(db,
    `${write}SELECT *, transaction_id::text AS log_transaction_id FROM ${ident(log.schema)}.${ident(log.table)}
      WHERE (transaction_id, ${pos}) > ${cursor}
        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ${options.where?.(bind) ?? ''}
      ORDER BY transaction_id ASC, ${pos} ASC
      LIMIT $3`,
    params,
  );
}

/** How far a reader of a log is behind (operators' lag metrics). */
export interface LogBacklog {
  /** Committed rows after the reader's cursor, counted up to the caller's bound. */
  rows: number;
  /** Seconds since the first of them was written (0 when none). */
  oldestAgeSeconds: number;
}

/**
 * The committed rows after `after` in cursor order, counted up to `countMax` so that a reader far behind costs one
 * bounded index range scan (the same index readLogAfter uses), and the age of the first of them by `created_at`.
 * Rows held back by the xmin guard are counted: they are committed and waiting, which is what lag means to an
 * operator; rows of transactions still running are invisible here as everywhere.
 */
export async function logBacklog(
  db: SqlExecutor,
  log: LogTable,
  after: LogCursor,
  countMax: number,
  extraWhere = '',
  extraParams: unknown[] = [],
): Promise<LogBacklog> {
  const pos = ident(log.positionColumn);
  const [row] = await queryRows<{ rows: number; oldest_age_seconds: number }>(db,
    `SELECT count(*)::int AS rows, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_age_seconds
       FROM (SELECT created_at FROM ${ident(log.schema)}.${ident(log.table)}
              WHERE (transaction_id, ${pos}) > ($1::xid8, $2::bigint) ${extraWhere}
              ORDER BY transaction_id ASC, ${pos} ASC
              LIMIT $3) behind`,
    [after.transactionId, after.position, countMax, ...extraParams],
  );
  return { rows: row.rows, oldestAgeSeconds: Math.max(0, row.oldest_age_seconds) };
}

/** The cursor just past `row`, read with readLogAfter. */
export function cursorOf(row: LogRow<unknown>, positionColumn: string): LogCursor {
  return { transactionId: row.log_transaction_id, position: String((row as Record<string, unknown>)[positionColumn]) };
}

/** True when `a` is past `b` (checkpoints only move forward). */
export function isAfter(a: LogCursor, b: LogCursor): boolean {
  const [ax, bx] = [BigInt(a.transactionId), BigInt(b.transactionId)];
  return ax !== bx ? ax > bx : BigInt(a.position) > BigInt(b.position);
}

/**
 * The cursor that replaces a checkpoint stored by the old position-only reader (migrations): every row it may have
 * passed over lies after it. An unread row either sits above the old position, or below it with an xid above that
 * of the row at the old position (it was invisible when that row was read). So start at the smallest of those xids.
 * Rows already published are published again; consumers' inboxes make that harmless.
 */
export function legacyCheckpointCursorSql(table: string, positionColumn: string, oldPosition: string, extraWhere = ''): string {
  const pos = ident(positionColumn);
  return `(SELECT least(
            (SELECT transaction_id FROM ${table} WHERE ${pos} = ${oldPosition} ${extraWhere}),
            (SELECT min(transaction_id) FROM ${table} WHERE ${pos} > ${oldPosition} ${extraWhere})))`;
}
