import type { EventCatalogue } from '@payments/contracts';
import { EventPublisher } from './envelope';
import { EventStore, RecordedEvent } from './event-store';
import { LOG_START } from './log-reader';
import { publicEvents } from './outbox-relay';
import { SqlExecutor } from './sql';

export interface RelayReconcileOptions {
  db: SqlExecutor;
  store: EventStore;
  topic: string;
  /** The event ids the topic holds (EventBus.publishedEventIds). */
  publishedIds: ReadonlySet<string>;
  /** Republishes what is missing when given; without it the call only reports (dry run). */
  publisher?: EventPublisher;
  /** The service's event catalogue, as the relay's: only public events belong on the topic, in their public form. */
  catalogue: EventCatalogue;
  batchSizeMax?: number;
}

export interface RelayReconcileReport {
  topic: string;
  scanned: number;
  /** Of the scanned events, those that belong on the topic (public); internal ones never leave the log. */
  expected: number;
  missing: number;
  republished: number;
  /** The first missing events, for the operator to see what they were. */
  sample: { eventId: string; type: string; streamId: string; globalPosition: string }[];
}

/**
 * Finds committed public events of a service log that never reached its topic (what the position-only relay skipped in
 * deployments that ran it) and, unless dry, publishes them in log order. Events committed a moment ago that the
 * running relay has not published yet count as missing too and go out twice: consumers' inboxes make that harmless.
 */
export async function reconcileRelay(options: RelayReconcileOptions): Promise<RelayReconcileReport> {
  const report: RelayReconcileReport = { topic: options.topic, scanned: 0, expected: 0, missing: 0, republished: 0, sample: [] };
  for (let cursor = LOG_START; ; ) {
    const { events, next } = await options.store.readAll(options.db, cursor, options.batchSizeMax ?? 1_000);
    if (events.length === 0) return report;
    report.scanned += events.length;
    const expected = events.filter((e) => options.catalogue.declaration(e.type)?.visibility === 'public');
    report.expected += expected.length;
    const missing: RecordedEvent[] = expected.filter((e) => !options.publishedIds.has(e.eventId));
    report.missing += missing.length;
    for (const e of missing.slice(0, Math.max(0, 20 - report.sample.length))) {
      report.sample.push({ eventId: e.eventId, type: e.type, streamId: e.streamId, globalPosition: e.globalPosition });
    }
    if (options.publisher && missing.length > 0) {
      await options.publisher.publish(options.topic, publicEvents(options.catalogue, missing));
      report.republished += missing.length;
    }
    cursor = next;
  }
}
