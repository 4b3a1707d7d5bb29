import { loadCheckpoint, storeCheckpoint } from './checkpoints';
import { EventEnvelope, EventPublisher } from './envelope';
import { EventStore } from './event-store';
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
  /** Maps an event to its public bus form (e.g. drops secret hashes); the log keeps the full event. */
  toPublic?: (envelope: EventEnvelope) => EventEnvelope;
  /** Test seam: runs after a batch is published and before its checkpoint is stored (crash injection). */
  afterPublish?: (count: number) => Promise<void>;
  onError?: (error: unknown) => void;
}

/**
 * Publishes committed events to the bus in log order (DESIGN §4 outbox). Publish first, then store the checkpoint:
 * a crash in between republishes the batch (at-least-once), and consumers' inboxes make that harmless.
 */
export class OutboxRelay {
  private running = false;
  private wake: () => void = () => undefined;
  private loop?: Promise<void>;

  constructor(private readonly options: OutboxRelayOptions) {}

  private get name(): string {
    return this.options.name ?? 'outbox-relay';
  }

  /** One batch: returns how many events were published. */
  async runOnce(): Promise<number> {
    const { db, schema, store, publisher, topic } = this.options;
    const after = await loadCheckpoint(db, schema, this.name);
    const { events, next } = await store.readAll(db, after, this.options.batchSizeMax ?? 500);
    if (events.length === 0) return 0;
    await publisher.publish(topic, this.options.toPublic ? events.map(this.options.toPublic) : events);
    if (this.options.afterPublish) await this.options.afterPublish(events.length);
    await storeCheckpoint(db, schema, this.name, next);
    return events.length;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let published = 0;
        try {
          published = await this.runOnce();
        } catch (error) {
          this.options.onError?.(error);
        }
        if (published > 0 && this.running) continue;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, this.options.pollIntervalMs ?? 250);
        });
      }
    })();
  }

  /** Wakes the loop early (an append NOTIFY arrived). */
  nudge(): void {
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = undefined;
  }
}
