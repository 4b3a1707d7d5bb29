import { ident, queryRows, SqlExecutor } from './sql';

/**
 * Reads an append-only log table (bigserial `position` column + xid8 `transaction_id`) after a checkpoint.
 *
 * bigserial values are taken at INSERT time but become visible at COMMIT time, so they commit out of order:
 * a reader doing `position > checkpoint` alone can pass position 7 while position 6 is still uncommitted and
 * never see 6. Only rows written by transactions older than every running transaction
 * (`transaction_id < pg_snapshot_xmin(pg_current_snapshot())`) are read; newer rows wait for the next poll.
 */
export interface LogTable {
  schema: string;
  table: string;
  positionColumn: string;
}

export async function readLogAfter<TRow>(
  db: SqlExecutor,
  log: LogTable,
  afterPosition: string,
  limit: number,
  extraWhere = '',
  extraParams: unknown[] = [],
): Promise<TRow[]> {
  const pos = ident(log.positionColumn);
  return queryRows(db,
    `SELECT * FROM ${ident(log.schema)}.${ident(log.table)}
      WHERE ${pos} > $1
        AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        ${extraWhere}
      ORDER BY ${pos} ASC
      LIMIT $2`,
    [afterPosition, limit, ...extraParams],
  );
}
