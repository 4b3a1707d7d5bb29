import { EventCatalogue, publicEnvelope } from '@payments/contracts';
import { loadCheckpoint, storeCheckpoint } from './checkpoints';
import { EventEnvelope, EventPublisher } from './envelope';
import { EventStore } from './event-store';
import { LOG_START, LogBacklog, logBacklog, LogCursor } from './log-reader';
import { SqlExecutor } from './sql';
import { POSITION_STORE_INTERVAL_MS, PollPause } from './poll-pause';

export interface OutboxRelayOptions {
  db: SqlExecutor;
  /** The service schema: its `checkpoints` hold the relay's, and `store` reads its `events` (the same schema). */
  schema: string;
  store: EventStore;
  publisher: EventPublisher;
  topic: string;
  /** Checkpoint name; one relay per service topic. */
  name?: string;
  batchSizeMax?: number;
  /** Poll after a read that found events or a nudge (250 ms), doubling while idle up to `pollIdleMaxMs` (IDLE_POLL_MAX_MS). */
  pollIntervalMs?: number;
  pollIdleMaxMs?: number;
  /** How long a nudge that wakes the idle relay waits for more commits before the read (default RELAY_LINGER_MS). */
  lingerMs?: number;
  /**
   * While pages flow, the started relay stores its checkpoint at most this often (POSITION_STORE_INTERVAL_MS); it
   * stores it at once when a poll pause runs out with nothing new (gone idle) and on stop. A crash republishes what it
   * published since (at-least-once; consumers' inboxes make that harmless).
   */
  positionStoreIntervalMs?: number;
  /**
   * The service's event catalogue (libs/contracts/src/events): only its public events go out, in their public form
   * (internals and secrets dropped); internal and undeclared events stay in the log. The log keeps every event whole.
   */
  catalogue: EventCatalogue;
  /** Test seam: runs after a batch is published and before its checkpoint is stored (crash injection). */
  afterPublish?: (count: number) => Promise<void>;
  onError?: (error: unknown) => void;
}

/** The checkpoint a service's relay stores (in its schema's `checkpoints`) unless it is given another name. */
export const OUTBOX_RELAY_CHECKPOINT = 'outbox-relay';

/** A relay woken by a nudge reads this much later: long enough for concurrent commits to share a page, short next to a request. */
export const RELAY_LINGER_MS = 2;

/** Bound of the relay backlog count: past it the metric saturates instead of scanning the whole log. */
export const RELAY_BACKLOG_COUNT_MAX = 100_000;

/**
 * Publishes committed public events to the bus in log order (DESIGN §4 outbox). Publish first, then store the
 * checkpoint: a crash in between republishes what was published since the checkpoint (at-least-once), and consumers'
 * inboxes make that harmless. The checkpoint moves past internal events as past published ones: they are never
 * published.
 */
export class OutboxRelay {
  private running = false;
  /** After the last page this relay published; a read starts after the later of it and the stored checkpoint. */
  private cursor: LogCursor = LOG_START;
  /** Published past the stored checkpoint, not stored yet (the started relay stores at most once an interval). */
  private unstored?: LogCursor;
  private storedAt = 0;
  /**
   * Ended by a nudge (something committed since the last read began, so read again before sleeping); a nudge that
   * wakes the idle relay lingers, so that the page takes the events of the transactions committing around it instead
   * of one read per commit: under load nudges come faster than reads, and each read costs a statement.
   */
  private pause: PollPause;
  private loop?: Promise<void>;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pause = this.newPause();
  }

  private newPause(): PollPause {
    const { pollIntervalMs, pollIdleMaxMs, lingerMs } = this.options;
    return new PollPause({ baseMs: pollIntervalMs ?? 250, maxMs: pollIdleMaxMs, lingerMs: lingerMs ?? RELAY_LINGER_MS });
  }

  private get name(): string {
    return this.options.name ?? OUTBOX_RELAY_CHECKPOINT;
  }

  private get pageSize(): number {
    return this.options.batchSizeMax ?? 500;
  }

  /**
   * One batch, its checkpoint stored: returns how many committed events the relay moved past (published or
   * internal). Three statements when there is something to publish (read, publish, store), one when there is not.
   */
  runOnce(): Promise<number> {
    return this.relayPage(true);
  }

  /**
   * One batch; its checkpoint stored when `storeNow` or a store interval has passed. The read looks the stored
   * checkpoint up itself and starts after the later of it and this relay's cursor: another process of the service
   * relaying the same log moves this one on, and a failed publish is read again (the cursor moves only after it).
   */
  private async relayPage(storeNow: boolean): Promise<number> {
    const { db, store, publisher, topic, catalogue } = this.options;
    const { events, next } = await store.readAll(db, this.cursor, this.pageSize, this.name);
    if (events.length > 0) {
      const published = publicEvents(catalogue, events);
      if (published.length > 0) await publisher.publish(topic, published);
      if (this.options.afterPublish) await this.options.afterPublish(published.length);
      this.cursor = this.unstored = next;
    }
    if (storeNow || Date.now() - this.storedAt >= (this.options.positionStoreIntervalMs ?? POSITION_STORE_INTERVAL_MS)) await this.storeUnstored();
    return events.length;
  }

  private async storeUnstored(): Promise<void> {
    const unstored = this.unstored;
    if (!unstored) return;
    await storeCheckpoint(this.options.db, this.options.schema, this.name, unstored);
    if (this.unstored === unstored) this.unstored = undefined;
    this.storedAt = Date.now();
  }

  /**
   * What the relay has not passed yet: committed events after its checkpoint (public or internal, counted up to
   * `countMax`) and the age of the first. Grows while the bus is down, the relay is stopped, or a long transaction
   * anywhere holds the xmin guard back.
   */
  async backlog(countMax = RELAY_BACKLOG_COUNT_MAX): Promise<LogBacklog> {
    const { db, schema } = this.options;
    const after = await loadCheckpoint(db, schema, this.name);
    return logBacklog(db, { schema, table: 'events', positionColumn: 'global_position' }, after, countMax);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const pause = (this.pause = this.newPause()); // a stopped one ends every pause
    this.storedAt = Date.now(); // the stored checkpoint is where the relay starts: the first interval starts now
    this.loop = (async () => {
      let quiet = false; // the last pause ran out with no nudge: the relay has gone idle, its checkpoint is stored now
      while (this.running) {
        let full = false;
        let failed = false;
        try {
          const moved = await this.relayPage(quiet);
          if (moved > 0) pause.worked();
          full = moved >= this.pageSize;
        } catch (error) {
          failed = true;
          this.options.onError?.(error); // then wait: a failing bus is not retried in a tight loop
        }
        if (!this.running) break;
        if (full && !failed) continue; // more may be waiting
        // After a partial page only a commit since the read began can have added anything the read did not see (or
        // the xmin guard held rows back: the poll covers that, at the base pace for the first polls after activity).
        // (Lingering after a busy read too made no difference to the statements per transaction measured, only to
        // latency.)
        quiet = !(await pause.pause({ afterError: failed }));
      }
      await this.storeUnstored().catch((error: unknown) => this.options.onError?.(error)); // a clean stop stores it
    })();
  }

  /** Wakes the loop early: a transaction of this service committed (maybe with events); cheap to call often. */
  nudge(): void {
    this.pause.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.pause.stop();
    await this.loop;
    this.loop = undefined;
  }
}

/** The public forms of the catalogue's public events among `events`, in log order (the rest never leaves the log). */
export function publicEvents(catalogue: EventCatalogue, events: readonly EventEnvelope[]): EventEnvelope[] {
  return events.flatMap((event) => publicEnvelope(catalogue, event) ?? []);
}
