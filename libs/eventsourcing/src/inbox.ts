import { ident, queryPrepared, SqlExecutor } from './sql';

/**
 * Records that `consumer` handled `eventId`, inside the caller's transaction. Returns false when it was already
 * recorded: the caller skips its effects, so an at-least-once redelivery has exactly one effect.
 */
export async function recordInInbox(tx: SqlExecutor, schema: string, consumer: string, eventId: string): Promise<boolean> {
  const rows = await queryPrepared(tx, 
    `INSERT INTO ${ident(schema)}.inbox (consumer, event_id) VALUES ($1, $2)
     ON CONFLICT (consumer, event_id) DO NOTHING RETURNING 1 AS inserted`,
    [consumer, eventId],
  );
  return rows.length === 1;
}
