import { ident, queryRows, SqlExecutor } from './sql';

/** Named positions in the global log (relay, subscriptions), stored in the service schema. */
export async function loadCheckpoint(db: SqlExecutor, schema: string, name: string): Promise<string> {
  const rows = await queryRows(db, `SELECT position::text AS position FROM ${ident(schema)}.checkpoints WHERE name = $1`, [name]);
  return rows[0]?.position ?? '0';
}

export async function storeCheckpoint(db: SqlExecutor, schema: string, name: string, position: string): Promise<void> {
  await queryRows(db, 
    `INSERT INTO ${ident(schema)}.checkpoints (name, position, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (name) DO UPDATE SET position = GREATEST(${ident(schema)}.checkpoints.position, EXCLUDED.position), updated_at = now()`,
    [name, position],
  );
}
