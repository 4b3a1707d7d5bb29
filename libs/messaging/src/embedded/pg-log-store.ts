import { BindParam, cursorOf, ident, LOG_START, LogBacklog, logBacklog, LogCursor, LogRow, queryPrepared, queryRows, readLogAfter, SqlExecutor } from '@payments/eventsourcing';

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

const INSERT_MESSAGES = (schema: string): string =>
  `INSERT INTO ${ident(schema)}.messages (topic, key, event_id, envelope, headers)
   SELECT $1, m.key, m.event_id, m.envelope::jsonb, m.headers::jsonb
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS m(key, event_id, envelope, headers, ord)
    ORDER BY m.ord`;

const messageParams = (topic: string, messages: readonly NewMessage[]): unknown[] => [
  topic,
  messages.map((m) => m.key),
  messages.map((m) => m.eventId),
  messages.map((m) => JSON.stringify(m.envelope)),
  messages.map((m) => JSON.stringify(m.headers)),
];

/** One statement; WITH ORDINALITY + ORDER BY makes the positions follow the order of `messages`. */
export async function appendMessages(tx: SqlExecutor, schema: string, topic: string, messages: readonly NewMessage[]): Promise<void> {
  await tx.query(INSERT_MESSAGES(schema), messageParams(topic, messages));
}

/**
 * appendMessages and notifyTopic as one statement outside any transaction: the rows and their NOTIFY commit together
 * without BEGIN and COMMIT round trips (a data-modifying WITH runs to completion whether or not it is read).
 */
export async function publishMessages(db: SqlExecutor, schema: string, topic: string, messages: readonly NewMessage[]): Promise<void> {
  await queryPrepared(db, `WITH appended AS (${INSERT_MESSAGES(schema)}) SELECT pg_notify($6, $1)`, [...messageParams(topic, messages), notifyChannelOf(schema)]);
}

/** Delivered at COMMIT, so a woken consumer can already see the rows (once older transactions are done). */
export async function notifyTopic(tx: SqlExecutor, schema: string, topic: string): Promise<void> {
  await tx.query(`SELECT pg_notify($1, $2)`, [notifyChannelOf(schema), topic]);
}

/**
 * The topic's next page after `after`; with `store`, the same statement stores that position of the group first
 * (the page it has just handled), so a page costs one statement instead of a read and an UPDATE.
 */
export function readMessagesAfter(
  db: SqlExecutor,
  schema: string,
  topic: string,
  after: LogCursor,
  limit: number,
  store?: { group: string; position: LogCursor },
): Promise<LogRow<MessageRow>[]> {
  return readLogAfter<MessageRow>(db, { schema, table: 'messages', positionColumn: 'position' }, after, limit, {
    where: (bind) => `AND topic = ${bind(topic)}`,
    alsoWrite: store && ((bind) => savePositionSql(schema, bind, store.group, topic, store.position)),
  });
}

export const messageCursor = (row: LogRow<MessageRow>): LogCursor => cursorOf(row, 'position');

/**
 * The group's cursor in the topic; a new group starts at the beginning, or (not fromBeginning) after every
 * transaction that has ended: what commits later is read, like a Kafka group starting at the latest offset.
 */
export async function loadPosition(db: SqlExecutor, schema: string, group: string, topic: string, fromBeginning: boolean): Promise<LogCursor> {
  const s = ident(schema);
  await db.query(
    `INSERT INTO ${s}.consumer_positions (group_name, topic, transaction_id, position)
     SELECT $1, $2, CASE WHEN $3 THEN '0'::xid8 ELSE pg_snapshot_xmin(pg_current_snapshot()) END, 0
     ON CONFLICT (group_name, topic) DO NOTHING`,
    [group, topic, fromBeginning],
  );
  const rows = await db.query(
    `SELECT transaction_id::text AS "transactionId", position::text AS position FROM ${s}.consumer_positions WHERE group_name = $1 AND topic = $2`,
    [group, topic],
  );
  return rows[0] as LogCursor;
}

/** Only forward: a cursor never moves back, even if two consumers ever raced (the advisory lock prevents it). */
function savePositionSql(schema: string, bind: BindParam, group: string, topic: string, cursor: LogCursor): string {
  const [tx, pos] = [bind(cursor.transactionId), bind(cursor.position)];
  return `UPDATE ${ident(schema)}.consumer_positions SET transaction_id = ${tx}::xid8, position = ${pos}::bigint, updated_at = now()
           WHERE group_name = ${bind(group)} AND topic = ${bind(topic)} AND (transaction_id, position) < (${tx}::xid8, ${pos}::bigint)`;
}

export async function savePosition(db: SqlExecutor, schema: string, group: string, topic: string, cursor: LogCursor): Promise<void> {
  const params: unknown[] = [];
  await db.query(savePositionSql(schema, (value) => `$${params.push(value)}`, group, topic, cursor), params);
}

/** Bound of the lag counts: a group far behind costs one bounded index range scan per scrape, and the count saturates. */
export const LAG_COUNT_MAX = 100_000;

const messagesLog = (schema: string) => ({ schema, table: 'messages', positionColumn: 'position' });

/** How far the group's stored position is behind in the topic; undefined before the group ever started on it. */
export async function groupBacklog(db: SqlExecutor, schema: string, group: string, topic: string): Promise<LogBacklog | undefined> {
  const [position] = await queryRows<LogCursor>(
    db,
    `SELECT transaction_id::text AS "transactionId", position::text AS position FROM ${ident(schema)}.consumer_positions WHERE group_name = $1 AND topic = $2`,
    [group, topic],
  );
  return position && logBacklog(db, messagesLog(schema), position, LAG_COUNT_MAX, 'AND topic = $4', [topic]);
}

/** Messages the topic holds (counted up to LAG_COUNT_MAX): a DLQ's dead letters. */
export async function topicSize(db: SqlExecutor, schema: string, topic: string): Promise<number> {
  return (await logBacklog(db, messagesLog(schema), LOG_START, LAG_COUNT_MAX, 'AND topic = $4', [topic])).rows;
}
