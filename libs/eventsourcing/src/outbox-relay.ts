import { EventCatalogue, publicEnvelope } from '@payments/contracts';
import { loadCheckpoint, storeCheckpoint } from './checkpoints';
import { EventEnvelope, EventPublisher } from './envelope';
import { EventStore } from './event-store';
import { LogBacklog, logBacklog } from './log-reader';
import { SqlExecutor } from './sql';

export interface OutboxRelayOptions {
  db: SqlExecutor;
  schema: string;
  store: EventStore;
  publisher: EventPublisher;
  topic: string;
  /** Checkpoint name; one relay per service topic. */
  name?: string;
  batchSizeMax?: number;
  pollIntervalMs?: number;
  /**
   * The service's event catalogue (libs/contracts/src/events): only its public events go out, in their public form
   * (internals and secrets dropped); internal and undeclared events stay in the log. The log keeps every event whole.
   */
  catalogue: EventCatalogue;
  /** Test seam: runs after a batch is published and before its checkpoint is stored (crash injection). */
  afterPublish?: (count: number) => Promise<void>;
  onError?: (error: unknown) => void;
}

/** Bound of the relay backlog count: past it the metric saturates instead of scanning the whole log. */
export const RELAY_BACKLOG_COUNT_MAX = 100_000;

/**
 * Publishes committed public events to the bus in log order (DESIGN §4 outbox). Publish first, then store the
 * checkpoint: a crash in between republishes the batch (at-least-once), and consumers' inboxes make that harmless.
 * The checkpoint moves past internal events as past published ones: they are never published.
 */
export class OutboxRelay {
  private running = false;
  /** Set by a nudge: something committed since the last read began, so read again before sleeping. */
  private nudged = false;
  private wake: () => void = () => undefined;
  private loop?: Promise<void>;

  constructor(private readonly options: OutboxRelayOptions) {}

  private get name(): string {
    return this.options.name ?? 'outbox-relay';
  }

  /** One batch: returns how many committed events the checkpoint moved past (published or internal). */
  async runOnce(): Promise<number> {
    const { db, schema, store, publisher, topic, catalogue } = this.options;
    const after = await loadCheckpoint(db, schema, this.name);
    const { events, next } = await store.readAll(db, after, this.options.batchSizeMax ?? 500);
    if (events.length === 0) return 0;
    const published = publicEvents(catalogue, events);
    if (published.length > 0) await publisher.publish(topic, published);
    if (this.options.afterPublish) await this.options.afterPublish(published.length);
    await storeCheckpoint(db, schema, this.name, next);
    return events.length;
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
    this.loop = (async () => {
      while (this.running) {
        let again = false;
        this.nudged = false;
        try {
          again = (await this.runOnce()) > 0 || this.nudged;
        } catch (error) {
          this.options.onError?.(error); // then wait: a failing bus is not retried in a tight loop
        }
        if (again && this.running) continue;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, this.options.pollIntervalMs ?? 250);
        });
      }
    })();
  }

  /** Wakes the loop early: a transaction of this service committed (maybe with events); cheap to call often. */
  nudge(): void {
    this.nudged = true;
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = undefined;
  }
}

/** The public forms of the catalogue's public events among `events`, in log order (the rest never leaves the log). */
export function publicEvents(catalogue: EventCatalogue, events: readonly EventEnvelope[]): EventEnvelope[] {
  return events.flatMap((event) => publicEnvelope(catalogue, event) ?? []);
}
