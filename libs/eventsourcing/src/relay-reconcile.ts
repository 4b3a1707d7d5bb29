import { EventEnvelope, EventPublisher } from './envelope';
import { EventStore, RecordedEvent } from './event-store';
import { LOG_START } from './log-reader';
import { SqlExecutor } from './sql';

export interface RelayReconcileOptions {
  db: SqlExecutor;
  store: EventStore;
  topic: string;
  /** The event ids the topic holds (EventBus.publishedEventIds). */
  publishedIds: ReadonlySet<string>;
  /** Republishes what is missing when given; without it the call only reports (dry run). */
  publisher?: EventPublisher;
  /** The relay's mapping to the public form (same as OutboxRelayOptions.toPublic). */
  toPublic?: (envelope: EventEnvelope) => EventEnvelope;
  batchSizeMax?: number;
}

export interface RelayReconcileReport {
  topic: string;
  scanned: number;
  missing: number;
  republished: number;
  /** The first missing events, for the operator to see what they were. */
  sample: { eventId: string; type: string; streamId: string; globalPosition: string }[];
}

/**
 * Finds committed events of a service log that never reached its topic (what the position-only relay skipped in
 * deployments that ran it) and, unless dry, publishes them in log order. Events committed a moment ago that the
 * running relay has not published yet count as missing too and go out twice: consumers' inboxes make that harmless.
 */
export async function reconcileRelay(options: RelayReconcileOptions): Promise<RelayReconcileReport> {
  const report: RelayReconcileReport = { topic: options.topic, scanned: 0, missing: 0, republished: 0, sample: [] };
  for (let cursor = LOG_START; ; ) {
    const { events, next } = await options.store.readAll(options.db, cursor, options.batchSizeMax ?? 1_000);
    if (events.length === 0) return report;
    report.scanned += events.length;
    const missing: RecordedEvent[] = events.filter((e) => !options.publishedIds.has(e.eventId));
    report.missing += missing.length;
    for (const e of missing.slice(0, Math.max(0, 20 - report.sample.length))) {
      report.sample.push({ eventId: e.eventId, type: e.type, streamId: e.streamId, globalPosition: e.globalPosition });
    }
    if (options.publisher && missing.length > 0) {
      await options.publisher.publish(options.topic, options.toPublic ? missing.map(options.toPublic) : missing);
      report.republished += missing.length;
    }
    cursor = next;
  }
}
