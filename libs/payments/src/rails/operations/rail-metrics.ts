import { Gauge, Registry } from 'prom-client';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { scrapeRead } from '@payments/runtime';

interface RailGauge {
  name: string;
  help: string;
  /** One grouped read: `connector_id` and `v` per connector that has any. */
  sql: (schema: string) => string;
}

const GAUGES: RailGauge[] = [
  {
    name: 'payments_rail_payments_pending',
    help: 'Payments handed to a connector and not yet put in a file or sent (SUBMITTED).',
    sql: (s) => `SELECT connector_id, count(*)::float8 AS v FROM ${s}.rail_payments WHERE status = 'SUBMITTED' GROUP BY connector_id`,
  },
  {
    name: 'payments_rail_files_pending',
    help: 'Outbound files claimed and not written to the outbox yet (WRITING): more than a batch interval means the writer is stuck.',
    sql: (s) => `SELECT connector_id, count(*)::float8 AS v FROM ${s}.rail_files WHERE direction = 'OUTBOUND' AND status = 'WRITING' GROUP BY connector_id`,
  },
  {
    name: 'payments_rail_exceptions_open',
    help: 'Rail exceptions waiting for an operator (GET /operator/v1/rails/exceptions?status=OPEN).',
    sql: (s) => `SELECT connector_id, count(*)::float8 AS v FROM ${s}.rail_exceptions WHERE status = 'OPEN' GROUP BY connector_id`,
  },
  {
    name: 'payments_rail_oldest_submitted_age_seconds',
    help: 'Age of the oldest payment not final on its rail (SUBMITTED, FILED or SENT); 0 when none is. Alert past the rail\'s settlement time.',
    sql: (s) => `SELECT connector_id, extract(epoch FROM now() - min(submitted_at))::float8 AS v FROM ${s}.rail_payments WHERE status IN ('SUBMITTED', 'FILED', 'SENT') GROUP BY connector_id`,
  },
];

/**
 * The rails' backlog as gauges labelled by connector, each one grouped read when Prometheus scrapes (scrapeRead:
 * bounded, a failed read keeps the previous values). Every configured connector has a sample (0 when it holds
 * nothing), and so does a connector no longer configured that still holds payments or exceptions.
 */
export function registerRailMetrics(registry: Registry, db: SqlExecutor, schema: string, configuredConnectors: () => string[]): void {
  for (const g of GAUGES) {
    const read = scrapeRead(() => queryRows<{ connector_id: string; v: number }>(db, g.sql(schema)));
    new Gauge({
      name: g.name,
      help: g.help,
      labelNames: ['connector'],
      registers: [registry],
      async collect() {
        const rows = await read();
        if (!rows) return;
        this.reset();
        for (const connector of configuredConnectors()) this.set({ connector }, 0);
        for (const row of rows) this.set({ connector: row.connector_id }, Number(row.v));
      },
    });
  }
}
