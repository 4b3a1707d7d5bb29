import { GENERIC_PLANS, POSITION_STORE_INTERVAL_MS, PollPause, SqlExecutor } from '@payments/eventsourcing';
import { Client } from 'pg';
import { sleep } from '../abortable-sleep';
import { BusLog, describeError } from '../bus-log';
import { deadLetterHeaders, deliver, DeliveryOutcome, DeliveryPolicy } from '../delivery-policy';
import { asEnvelope } from '../envelope-codec';
import { dlqTopicOf, SubscriptionOptions } from '../event-bus.port';
import type { LogCursor, LogRow } from '@payments/eventsourcing';
import { appendMessages, loadPosition, messageCursor, MessageRow, notifyTopic, readMessagesAfter, savePosition } from './pg-log-store';
import { inClientTransaction, sqlExecutorOf } from './pg-transactional';

/** A consumer woken while idle reads this much later: long enough for concurrent publishes to share a page. */
export const CONSUMER_LINGER_MS = 2;

export interface TopicConsumerSettings {
  databaseUrl: string;
  schema: string;
  applicationName: string;
  /**
   * Fallback poll: the xmin guard can hold rows back after their NOTIFY, and a NOTIFY can be missed. At this pace
   * after a page or a NOTIFY, doubling while idle up to `pollIdleMaxMs` (IDLE_POLL_MAX_MS).
   */
  pollIntervalMs: number;
  pollIdleMaxMs?: number;
  /**
   * While pages flow, the position is stored (with a read) at most this often (POSITION_STORE_INTERVAL_MS); at once
   * when a poll pause runs out with no NOTIFY (gone idle) and on stop. A crash redelivers what was handled since.
   */
  positionStoreIntervalMs?: number;
  /** How often a consumer waiting for the group's lock (or recovering from an error) tries again. */
  lockRetryMs: number;
  batchSize: number;
  log: BusLog;
}

export interface TopicConsumer {
  settings: TopicConsumerSettings;
  subscription: SubscriptionOptions;
  topic: string;
  policy: DeliveryPolicy;
  /** The pause after a partial page: ended by the topic's NOTIFY (one during the read or the handlers included). */
  pause: PollPause;
  signal: AbortSignal;
}

/**
 * Consumes one topic for one group until `signal` aborts; never rejects. Each attempt opens a dedicated session,
 * takes the group's session-level advisory lock on it (one active consumer per (group, topic) across processes),
 * and reads, stores positions and writes dead letters on that same session: if it dies, the lock goes with it
 * and so does our ability to move the position.
 */
export async function runTopicConsumer(c: TopicConsumer): Promise<void> {
  const { settings, signal } = c;
  while (!signal.aborted) {
    const session = new Client({
      connectionString: settings.databaseUrl,
      application_name: settings.applicationName,
      options: GENERIC_PLANS, // its page reads are prepared statements (queryPrepared)
      // Bounded connect so stop() is never stuck behind an unreachable server; keepalive notices a dead peer.
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    session.on('error', (error) => settings.log('debug', 'consumer session error', { error: describeError(error) }));
    try {
      await session.connect();
      if (await waitForLock(sqlExecutorOf(session), c)) await consumeWhileLocked(session, c);
    } catch (error) {
      if (!signal.aborted) {
        settings.log('error', 'bus consumer failed; restarting from the stored position', {
          group: c.subscription.group,
          topic: c.topic,
          error: describeError(error),
        });
      }
    } finally {
      await session.end().catch(() => undefined); // ending the session releases the advisory lock
    }
    await sleep(settings.lockRetryMs, signal);
  }
}

async function waitForLock(db: SqlExecutor, c: TopicConsumer): Promise<boolean> {
  const lockKey = `${c.settings.schema}:${c.subscription.group}:${c.topic}`;
  let reported = false;
  while (!c.signal.aborted) {
    const rows = await db.query(`SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked`, [lockKey]);
    if (rows[0].locked === true) return true;
    if (!reported) c.settings.log('info', 'another consumer of the group holds the topic; waiting', { lockKey });
    reported = true;
    await sleep(c.settings.lockRetryMs, c.signal);
  }
  return false;
}

async function consumeWhileLocked(session: Client, c: TopicConsumer): Promise<void> {
  const { settings, subscription, topic, signal } = c;
  const db = sqlExecutorOf(session);
  let position = await loadPosition(db, settings.schema, subscription.group, topic, subscription.fromBeginning ?? true);
  // The position is stored with the read of a next page (one statement), and at most once per store interval while
  // pages flow (issue #30: once per page was a commit per page): a crash repeats what was handled since, which the
  // consumers' inboxes already make harmless (at-least-once), as Kafka's auto-commit does. A pause that runs out with
  // no NOTIFY means the loop has gone idle: the read after it stores the position, so an idle system's positions (and
  // its lag metrics) are current. Stopping stores it at once; a dead letter stores its own position atomically.
  const storeIntervalMs = settings.positionStoreIntervalMs ?? POSITION_STORE_INTERVAL_MS;
  let unstored: LogCursor | undefined;
  let storedAt = Date.now(); // loaded just now
  let quiet = false;
  while (!signal.aborted) {
    const store = unstored && (quiet || Date.now() - storedAt >= storeIntervalMs) ? { group: subscription.group, position: unstored } : undefined;
    const rows = await readMessagesAfter(db, settings.schema, topic, position, settings.batchSize, store);
    if (store) [unstored, storedAt] = [undefined, Date.now()];
    quiet = false;
    let stopped = false;
    for (const row of rows) {
      const outcome = await deliverRow(row, c);
      // Stopping mid-retry: the position stays before this message, so the next consumer gets it.
      if (outcome.kind === 'stopped') {
        stopped = true;
        break;
      }
      if (outcome.kind === 'handled') unstored = messageCursor(row);
      else {
        await deadLetter(session, c, row, outcome);
        [unstored, storedAt] = [undefined, Date.now()];
      }
      position = messageCursor(row);
    }
    if (stopped) break;
    // A partial page means the topic was read to its end: wait for the next NOTIFY (one that came during the read
    // or the handlers is remembered) or the poll, instead of a read that would almost always come back empty.
    if (rows.length > 0) c.pause.worked();
    if (rows.length < settings.batchSize) quiet = !(await c.pause.pause());
  }
  if (unstored !== undefined) await savePosition(db, settings.schema, subscription.group, topic, unstored);
}

function deliverRow(row: MessageRow, c: TopicConsumer): Promise<DeliveryOutcome> {
  return deliver({
    decode: () => asEnvelope(row.envelope),
    context: { topic: row.topic, key: row.key, headers: row.headers },
    handler: c.subscription.handler,
    policy: c.policy,
    signal: c.signal,
    log: c.settings.log,
    trace: { system: 'postgresql', group: c.subscription.group },
  });
}

/** The dead letter and the moved position commit together: the message is parked exactly once, never lost. */
async function deadLetter(
  session: Client,
  c: TopicConsumer,
  row: LogRow<MessageRow>,
  outcome: Extract<DeliveryOutcome, { kind: 'dead-letter' }>,
): Promise<void> {
  const { schema } = c.settings;
  const source = { topic: row.topic, partition: 0, offset: row.position, group: c.subscription.group };
  const headers = { ...row.headers, ...deadLetterHeaders(source, outcome, new Date()) };
  await inClientTransaction(session, async (tx) => {
    await appendMessages(tx, schema, dlqTopicOf(row.topic), [{ key: row.key, eventId: row.event_id, envelope: row.envelope, headers }]);
    await savePosition(tx, schema, c.subscription.group, row.topic, messageCursor(row));
    await notifyTopic(tx, schema, dlqTopicOf(row.topic));
  });
  c.settings.log('error', 'message parked in the DLQ; replay it with admin bus:replay-dead-letters once the cause is fixed', { ...source, attempts: outcome.attempts, error: outcome.error });
}
