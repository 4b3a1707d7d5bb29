import { ident, readLogAfter, SqlExecutor } from '@payments/eventsourcing';

/** SQL of the embedded bus: appending to the log, reading it by the xmin rule, and the groups' positions. */
export interface MessageRow {
  position: string; // bigint as decimal string
  topic: string;
  key: string | null;
  event_id: string;
  envelope: unknown;
  headers: Record<string, string>;
}

export interface NewMessage {
  key: string | null;
  eventId: string;
  envelope: unknown;
  headers: Record<string, string>;
}

/** NOTIFY channel of a bus schema; the payload is the topic. */
export const notifyChannelOf = (schema: string): string => `${schema}_messages`;

/** One statement; WITH ORDINALITY + ORDER BY makes the positions follow the order of `messages`. */
export async function appendMessages(tx: SqlExecutor, schema: string, topic: string, messages: readonly NewMessage[]): Promise<void> {
  await tx.query(
    `INSERT INTO ${ident(schema)}.messages (topic, key, event_id, envelope, headers)
     SELECT $1, m.key, m.event_id, m.envelope::jsonb, m.headers::jsonb
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS m(key, event_id, envelope, headers, ord)
      ORDER BY m.ord`,
    [
      topic,
      messages.map((m) => m.key),
      messages.map((m) => m.eventId),
      messages.map((m) => JSON.stringify(m.envelope)),
      messages.map((m) => JSON.stringify(m.headers)),
    ],
  );
}

/** Delivered at COMMIT, so a woken consumer can already see the rows (once older transactions are done). */
export async function notifyTopic(tx: SqlExecutor, schema: string, topic: string): Promise<void> {
  await tx.query(`SELECT pg_notify($1, $2)`, [notifyChannelOf(schema), topic]);
}

export function readMessagesAfter(db: SqlExecutor, schema: string, topic: string, after: string, limit: number): Promise<MessageRow[]> {
  return readLogAfter<MessageRow>(db, { schema, table: 'messages', positionColumn: 'position' }, after, limit, 'AND topic = $3', [topic]);
}

/** The group's position in the topic; a new group starts at 0, or at the current end when not fromBeginning. */
export async function loadPosition(db: SqlExecutor, schema: string, group: string, topic: string, fromBeginning: boolean): Promise<string> {
  const s = ident(schema);
  await db.query(
    `INSERT INTO ${s}.consumer_positions (group_name, topic, position)
     SELECT $1, $2, CASE WHEN $3 THEN 0 ELSE (SELECT coalesce(max(position), 0) FROM ${s}.messages WHERE topic = $2) END
     ON CONFLICT (group_name, topic) DO NOTHING`,
    [group, topic, fromBeginning],
  );
  const rows = await db.query(`SELECT position::text AS position FROM ${s}.consumer_positions WHERE group_name = $1 AND topic = $2`, [
    group,
    topic,
  ]);
  return rows[0].position as string;
}

/** Only forward: a position never moves back, even if two consumers ever raced (the advisory lock prevents it). */
export async function savePosition(db: SqlExecutor, schema: string, group: string, topic: string, position: string): Promise<void> {
  await db.query(
    `UPDATE ${ident(schema)}.consumer_positions SET position = $3, updated_at = now()
      WHERE group_name = $1 AND topic = $2 AND position < $3`,
    [group, topic, position],
  );
}
