import { Counter, Gauge, Registry } from 'prom-client';
import { ident, queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { ServiceHost } from '../service-host';

/** OutboxRelay's default checkpoint name; ServiceHost runs one relay under it. */
const RELAY_CHECKPOINT = 'outbox-relay';

/**
 * Metrics of an event-sourced service, all read from its schema when Prometheus scrapes, so the write path pays
 * nothing for them. A failed query leaves the previous value: /readyz is where an unreachable database shows.
 */
export function registerServiceHostMetrics(registry: Registry, host: ServiceHost): void {
  const service = host.options.name;
  const db = host.dataSource;
  const schema = ident(service);

  const appended: Counter<'service' | 'type'> = new Counter({
    name: 'events_appended_total',
    help: 'Events committed to the service event store, by type (counted from the log, so it survives restarts).',
    labelNames: ['service', 'type'],
    registers: [registry],
    collect: () => countNewEvents().catch(() => undefined),
  });
  const countNewEvents = eventsCounterRefresh(db, schema, (type, count) => appended.inc({ service, type }, count));

  new Gauge({
    name: 'outbox_relay_lag_events',
    help: 'Committed events after the outbox relay checkpoint, i.e. not yet published to the bus.',
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      const sql = `SELECT count(*)::int AS n FROM ${schema}.events
                    WHERE global_position > coalesce((SELECT position FROM ${schema}.checkpoints WHERE name = $1), 0)`;
      await queryRows(db, sql, [RELAY_CHECKPOINT]).then(([row]) => this.set({ service }, row.n), () => undefined);
    },
  });

  new Gauge({
    name: 'timers_due',
    help: 'Durable timers past their due time and not fired yet (a growing value means the poller is behind or failing).',
    labelNames: ['service'],
    registers: [registry],
    async collect() {
      const sql = `SELECT count(*)::int AS n FROM ${schema}.timers WHERE fired_at IS NULL AND due_at <= now()`;
      await queryRows(db, sql).then(([row]) => this.set({ service }, row.n), () => undefined);
    },
  });
}

/**
 * Adds the events committed since the last call to the counter and moves the cursor, so each scrape reads only what
 * is new. It uses the relay's visibility rule (see log-reader.ts): rows of transactions still running are left for
 * a later scrape, never skipped. Overlapping scrapes share one run, or both would add the same rows.
 */
function eventsCounterRefresh(db: SqlExecutor, schema: string, add: (type: string, count: number) => void): () => Promise<void> {
  let cursor = '0';
  let running: Promise<void> | undefined;
  const run = async () => {
    const rows: { type: string; n: number; last: string }[] = await queryRows(
      db,
      `SELECT type, count(*)::int AS n, max(global_position)::text AS last FROM ${schema}.events
        WHERE global_position > $1 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        GROUP BY type`,
      [cursor],
    );
    for (const row of rows) {
      add(row.type, row.n);
      if (BigInt(row.last) > BigInt(cursor)) cursor = row.last;
    }
  };
  return () => {
    running ??= run().finally(() => (running = undefined));
    return running;
  };
}
