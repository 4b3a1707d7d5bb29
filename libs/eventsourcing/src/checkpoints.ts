import { LOG_START, LogCursor } from './log-reader';
import { ident, queryPrepared, SqlExecutor } from './sql';

/** Named cursors in the global log (relay, subscriptions), stored in the service schema. */
export async function loadCheckpoint(db: SqlExecutor, schema: string, name: string): Promise<LogCursor> {
  const rows = await queryPrepared<LogCursor>(
    db,
    `SELECT transaction_id::text AS "transactionId", position::text AS position FROM ${ident(schema)}.checkpoints WHERE name = $1`,
    [name],
  );
  return rows[0] ?? LOG_START;
}

/** Only forward: a cursor never moves back in (transaction_id, position) order. */
export async function storeCheckpoint(db: SqlExecutor, schema: string, name: string, cursor: LogCursor): Promise<void> {
  const t = `${ident(schema)}.checkpoints`;
  await queryPrepared(db,
    `INSERT INTO ${t} (name, transaction_id, position, updated_at) VALUES ($1, $2::xid8, $3, now())
     ON CONFLICT (name) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position, updated_at = now()
      WHERE (${t}.transaction_id, ${t}.position) < (EXCLUDED.transaction_id, EXCLUDED.position)`,
    [name, cursor.transactionId, cursor.position],
  );
}
