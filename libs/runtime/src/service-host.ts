import type { DataSource, EntityManager, EntitySchema, MixedList } from 'typeorm';
import { catalogueOf, EventCatalogue } from '@payments/contracts';
import {
  asTransactional,
  CommandExecutor,
  DurableTimers,
  eventsourcingMigrations,
  IdempotencyClaims,
  MigrationSet,
  OutboxRelay,
  PostgresEventStore,
  runMigrations,
  TimerHandler,
} from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { openServiceDatabase } from './database';
import { stateCacheEntriesMax } from './config';

/** Claims outlive the gateway's response records (IDEMPOTENCY_TTL_HOURS, at least 24 h) by a day. */
const IDEMPOTENCY_CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface ServiceHostOptions {
  /** Service name: its schema and its topic `payments.<name>.events.v1`. */
  name: string;
  databaseUrl: string;
  /** Where the relay publishes; only publishing and topic creation are used. */
  bus: Pick<EventBus, 'publish' | 'ensureTopics'>;
  topic: string;
  migrations: MigrationSet[];
  entities: MixedList<Function | string | EntitySchema>;
  sandboxTimeScale: number;
  timerHandlers?: Record<string, TimerHandler>;
  /** What the relay publishes: the public events of this catalogue (default: the catalogue of `name`). */
  events?: EventCatalogue;
  log?: (message: string, error?: unknown) => void;
}

/**
 * What every event-sourced service runs on, built once: its database and migrations, the write path, durable
 * timers, and the outbox relay woken when a transaction of this service commits. Services add their deciders and
 * RPC controllers on top.
 */
export class ServiceHost {
  readonly store: PostgresEventStore;
  readonly executor: CommandExecutor<EntityManager>;
  readonly timers: DurableTimers<EntityManager>;
  readonly relay: OutboxRelay;
  /** Idempotency-Keys claimed with the effects they caused (see IdempotencyClaims). */
  readonly claims: IdempotencyClaims;
  private purge?: NodeJS.Timeout;

  private constructor(
    readonly options: ServiceHostOptions,
    readonly dataSource: DataSource,
  ) {
    const db = asTransactional(dataSource);
    const log = options.log ?? (() => undefined);
    this.store = new PostgresEventStore(options.name);
    this.executor = new CommandExecutor(db, this.store, undefined, stateCacheEntriesMax());
    this.timers = new DurableTimers(db, options.name, { timeScale: options.sandboxTimeScale });
    this.claims = new IdempotencyClaims(dataSource, options.name);
    this.relay = new OutboxRelay({
      db: dataSource,
      schema: options.name,
      store: this.store,
      publisher: options.bus,
      topic: options.topic,
      catalogue: options.events ?? catalogueOf(options.name),
      onError: (error) => log(`${options.name} relay: publish failed, will retry`, error),
    });
  }

  static async open(options: ServiceHostOptions): Promise<ServiceHost> {
    const dataSource = await openServiceDatabase({ url: options.databaseUrl, schema: options.name, entities: options.entities });
    await runMigrations(asTransactional(dataSource), options.name, [eventsourcingMigrations, ...options.migrations]);
    return new ServiceHost(options, dataSource);
  }

  /** Starts the background work: relay (woken by appends) and timers. */
  async start(): Promise<void> {
    await this.options.bus.ensureTopics([this.options.topic]);
    this.relay.start();
    this.timers.start(this.options.timerHandlers ?? {}, (e) => this.options.log?.(`${this.options.name} timers failed`, e));
    // Appends happen only in this service's process, so a commit here is the wake-up; no NOTIFY, whose commit-time
    // queue lock would serialise every appending transaction in the database (ADR 0004). The relay's poll covers
    // writes that do not go through this DataSource.
    this.dataSource.subscribers.push({ afterTransactionCommit: () => this.relay.nudge() });
    this.purge = setInterval(() => void this.claims.purge(IDEMPOTENCY_CLAIM_TTL_MS).catch((e) => this.options.log?.(`${this.options.name}: idempotency purge failed`, e)), 10 * 60_000);
    this.purge.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.purge);
    await this.relay.stop();
    await this.timers.stop();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
