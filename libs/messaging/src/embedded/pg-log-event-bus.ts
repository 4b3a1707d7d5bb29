import { EventEnvelope, GENERIC_PLANS, ident, PgNotificationListener, runMigrations } from '@payments/eventsourcing';
import { Pool } from 'pg';
import { BusLog, errorsOnlyLog } from '../bus-log';
import { publishTraced } from '../bus-tracing';
import { DeadLetter, deadLetterOf } from '../dead-letters';
import { asEnvelope, envelopeHeaders } from '../envelope-codec';
import { ConsumerBacklog, dlqTopicOf, EventBus, SubscriptionHandle, SubscriptionOptions } from '../event-bus.port';
import { pgLogBusMigrations } from './pg-log-bus.migrations';
import { groupBacklog, notifyChannelOf, publishMessages, topicSize } from './pg-log-store';
import { PgLogSubscription } from './pg-log-subscription';
import { TopicConsumerSettings } from './pg-log-topic-consumer';
import { pgTransactional } from './pg-transactional';

export interface PgLogEventBusOptions {
  /** Schema of the bus tables (default `bus`). */
  schema?: string;
  pollIntervalMs?: number;
  /** A consumer stores its position at most this often while pages flow (POSITION_STORE_INTERVAL_MS, 1 s). */
  positionStoreIntervalMs?: number;
  lockRetryMs?: number;
  /** Messages read per query by a consumer loop. */
  batchSize?: number;
  /** Connections for publishing; each consumer loop and the listener have their own dedicated connection. */
  poolMax?: number;
  applicationName?: string;
  log?: BusLog;
}

/**
 * The embedded event bus (used when KAFKA_BROKERS is unset): topics are rows of one append-only PostgreSQL table,
 * read by the xmin rule of DESIGN §4, with LISTEN/NOTIFY to wake consumers. Same port and guarantees as Kafka:
 * at-least-once, per-key order (here even total order per topic), bounded retries then `<topic>.dlq`.
 */
export class PgLogEventBus implements EventBus {
  private readonly pool: Pool;
  private readonly settings: TopicConsumerSettings;
  private readonly listener: PgNotificationListener;
  private migrated?: Promise<void>;
  private readonly subscriptions = new Set<PgLogSubscription>();
  private closed = false;

  constructor(databaseUrl: string, options: PgLogEventBusOptions = {}) {
    this.settings = {
      databaseUrl,
      schema: options.schema ?? 'bus',
      applicationName: options.applicationName ?? 'payments-bus',
      pollIntervalMs: options.pollIntervalMs ?? 250,
      positionStoreIntervalMs: options.positionStoreIntervalMs,
      lockRetryMs: options.lockRetryMs ?? 1_000,
      batchSize: options.batchSize ?? 100,
      log: options.log ?? errorsOnlyLog,
    };
    this.pool = new Pool({
      connectionString: databaseUrl,
      max: options.poolMax ?? 5,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: this.settings.applicationName,
      options: GENERIC_PLANS, // the bus's reads and publishes are prepared statements (queryPrepared)
    });
    // An idle pooled connection that dies emits here; without a listener that would crash the process.
    this.pool.on('error', (error) => this.settings.log('warn', 'idle bus connection failed', { error: error.message }));
    const { databaseUrl: url, schema, applicationName, log } = this.settings;
    this.listener = new PgNotificationListener(url, notifyChannelOf(schema), applicationName, log);
  }

  /** Creates or upgrades the bus tables; called lazily by every operation, safe to run from many processes. */
  migrate(): Promise<void> {
    this.migrated ??= runMigrations(pgTransactional(this.pool), this.settings.schema, [pgLogBusMigrations]).then(
      () => undefined,
      (error: unknown) => {
        this.migrated = undefined;
        throw error;
      },
    );
    return this.migrated;
  }

  /** The rows and their NOTIFY commit together; positions follow the order of `envelopes`. */
  async publish(topic: string, envelopes: readonly EventEnvelope[]): Promise<void> {
    this.assertOpen();
    if (envelopes.length === 0) return;
    await this.migrate();
    await publishTraced('postgresql', topic, envelopes, async (traced) => {
      const messages = traced.map((e) => ({ key: e.streamId, eventId: e.eventId, envelope: e, headers: envelopeHeaders(e) }));
      await publishMessages(this.pool, this.settings.schema, topic, messages);
    });
  }

  /** A topic is a column value here: only the tables have to exist. */
  async ensureTopics(): Promise<void> {
    this.assertOpen();
    await this.migrate();
  }

  async subscribe(subscription: SubscriptionOptions): Promise<SubscriptionHandle> {
    this.assertOpen();
    if (subscription.topics.length === 0) throw new Error(`subscription ${subscription.group} has no topics`);
    await this.migrate();
    await this.listener.start();
    const handle = new PgLogSubscription(this.settings, subscription, this.listener, (s) => this.subscriptions.delete(s));
    this.subscriptions.add(handle);
    return handle;
  }

  async publishedEventIds(topic: string): Promise<Set<string>> {
    await this.migrate();
    const { rows } = await this.pool.query<{ event_id: string }>(`SELECT event_id FROM ${ident(this.settings.schema)}.messages WHERE topic = $1`, [topic]);
    return new Set(rows.map((r) => r.event_id));
  }

  async deadLetters(topic: string): Promise<DeadLetter[]> {
    await this.migrate();
    const { rows } = await this.pool.query<{ position: string; key: string | null; envelope: unknown; headers: Record<string, string> | null }>(
      `SELECT position::text AS position, key, envelope, headers FROM ${ident(this.settings.schema)}.messages WHERE topic = $1 ORDER BY position`,
      [dlqTopicOf(topic)],
    );
    return rows.map((r) => deadLetterOf({ dlqPosition: r.position, key: r.key, headers: r.headers ?? {}, decode: () => asEnvelope(r.envelope) }));
  }

  async consumerBacklog(groupPrefix: string): Promise<ConsumerBacklog> {
    const { schema } = this.settings;
    const subscriptions = [...this.subscriptions].map((s) => s.subscription).filter((s) => s.group.startsWith(groupPrefix));
    const pairs = subscriptions.flatMap(({ group, topics }) => [...new Set(topics)].map((topic) => ({ group, topic })));
    const topics = [...new Set(pairs.map((p) => p.topic))];
    const [lags, deadLetters] = await Promise.all([
      Promise.all(pairs.map(async ({ group, topic }) => ({ group, topic, backlog: await groupBacklog(this.pool, schema, group, topic) }))),
      Promise.all(topics.map(async (topic) => ({ topic, messages: await topicSize(this.pool, schema, dlqTopicOf(topic)) }))),
    ]);
    const consumers = lags.flatMap(({ group, topic, backlog }) => (backlog ? [{ group, topic, eventsBehind: backlog.rows, oldestAgeSeconds: backlog.oldestAgeSeconds }] : []));
    return { consumers, deadLetters };
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.listener.stop();
    await this.pool.end();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('PgLogEventBus is closed');
  }
}
