import { Counter, Gauge, Registry } from 'prom-client';
import { ident, LOG_START, LogCursor, queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { ServiceHost } from '../service-host';
import { scrapeRead } from './scrape-read';

/**
 * Metrics of an event-sourced service, all read from its schema when Prometheus scrapes, so the write path pays
 * nothing for them; each read is bounded (scrapeRead) and a failed or slow one leaves the previous value.
 */
export function registerServiceHostMetrics(registry: Registry, host: ServiceHost): void {
  const service = host.options.name;
  const registers = [registry];
  const labelNames = ['service'] as const;

  const appended: Counter<'service' | 'type'> = new Counter({
    name: 'payments_events_appended_total',
    help: 'Events committed to the service event store, by type (counted from the log, so it survives restarts).',
    labelNames: ['service', 'type'],
    registers,
    collect: () => countNewEvents().then(() => undefined),
  });
  const countNewEvents = scrapeRead(eventsCounterRefresh(host.dataSource, ident(service), (type, count) => appended.inc({ service, type }, count)));

  const relay = scrapeRead(() => host.relay.backlog());
  new Gauge({
    name: 'payments_outbox_relay_lag_events',
    help: 'Committed events the outbox relay has not passed yet (published or skipped as internal), counted up to 100000.',
    labelNames,
    registers,
    async collect() {
      const backlog = await relay();
      if (backlog) this.set({ service }, backlog.rows);
    },
  });
  new Gauge({
    name: 'payments_outbox_relay_lag_seconds',
    help: 'Age of the oldest committed event the outbox relay has not published yet (0 when caught up).',
    labelNames,
    registers,
    async collect() {
      const backlog = await relay();
      if (backlog) this.set({ service }, backlog.oldestAgeSeconds);
    },
  });

  const timers = scrapeRead(() => host.timers.backlog());
  new Gauge({
    name: 'payments_timers_due',
    help: 'Durable timers past their due time and not fired yet (a growing value means the poller is behind or failing).',
    labelNames,
    registers,
    async collect() {
      const backlog = await timers();
      if (backlog) this.set({ service }, backlog.due);
    },
  });
  new Gauge({
    name: 'payments_timers_oldest_due_age_seconds',
    help: 'How long the oldest due timer that has not fired has been due (0 when none is).',
    labelNames,
    registers,
    async collect() {
      const backlog = await timers();
      if (backlog) this.set({ service }, backlog.oldestDueMs / 1000);
    },
  });
}

/**
 * Adds the events committed since the last call to the counter and moves the cursor, so each scrape reads only what
 * is new. It reads as the relay does (log-reader.ts): rows of transactions still running are left for a later
 * scrape, and the cursor is (transaction_id, position), so a transaction that commits behind a younger one is not
 * skipped. scrapeRead keeps overlapping scrapes to one run, or both would add the same rows.
 */
function eventsCounterRefresh(db: SqlExecutor, schema: string, add: (type: string, count: number) => void): () => Promise<void> {
  let cursor: LogCursor = LOG_START;
  return async () => {
    const rows: { type: string | null; n: number; tx: string | null; pos: string | null }[] = await queryRows(
      db,
      `WITH fresh AS (
         SELECT type, transaction_id, global_position FROM ${schema}.events
          WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) AND transaction_id < pg_snapshot_xmin(pg_current_snapshot()))
       SELECT type, count(*)::int AS n, NULL AS tx, NULL AS pos FROM fresh GROUP BY type
       UNION ALL
       (SELECT NULL, 0, transaction_id::text, global_position::text FROM fresh ORDER BY transaction_id DESC, global_position DESC LIMIT 1)`,
      [cursor.transactionId, cursor.position],
    );
    for (const row of rows) {
      if (row.type !== null) add(row.type, row.n);
      else if (row.tx !== null && row.pos !== null) cursor = { transactionId: row.tx, position: row.pos };
    }
  };
}
