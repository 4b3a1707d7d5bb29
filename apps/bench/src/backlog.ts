import type { Client } from 'pg';

/**
 * The asynchronous work a write leaves behind, read straight from the database (issue #14): due timers not fired
 * yet, events past each relay's checkpoint, and messages past each consumer group's position on the PostgreSQL-log
 * bus. Cursors are compared in (transaction_id, position) order, the order the readers use (eventsourcing log-reader.ts).
 */
export const SERVICE_SCHEMAS = ['identity', 'accounts', 'quoting', 'payments', 'webhooks'] as const;
/** OutboxRelay's default checkpoint name; ServiceHost runs one relay under it. */
const RELAY_CHECKPOINT = 'outbox-relay';
/** PgLogEventBus's default schema (the platform does not change it). */
const BUS_SCHEMA = 'bus';

/** Counts by service (timers, relay) or by consumer group (bus, summed over its topics); `bus` is absent with Kafka. */
export interface Backlog {
  timersDue: Record<string, number>;
  relayLag: Record<string, number>;
  busLag?: Record<string, number>;
}

// The checkpoint row, or the log's start when the relay has stored none yet; one index range scan per service.
const serviceSql = SERVICE_SCHEMAS.map(
  (s) => `SELECT '${s}' AS service,
     (SELECT count(*) FROM "${s}".timers WHERE fired_at IS NULL AND due_at <= now())::int AS timers_due,
     (SELECT count(*) FROM "${s}".events e,
        (SELECT transaction_id, position FROM "${s}".checkpoints WHERE name = '${RELAY_CHECKPOINT}'
         UNION ALL SELECT '0'::xid8, 0 ORDER BY 1 DESC, 2 DESC LIMIT 1) c
       WHERE (e.transaction_id, e.global_position) > (c.transaction_id, c.position))::int AS relay_lag`,
).join('\nUNION ALL\n');

const busSql = `SELECT p.group_name, sum((SELECT count(*) FROM ${BUS_SCHEMA}.messages m
     WHERE m.topic = p.topic AND (m.transaction_id, m.position) > (p.transaction_id, p.position)))::int AS lag
   FROM ${BUS_SCHEMA}.consumer_positions p GROUP BY p.group_name`;

export async function readBacklog(db: Client): Promise<Backlog> {
  const backlog: Backlog = { timersDue: {}, relayLag: {} };
  for (const row of (await db.query<{ service: string; timers_due: number; relay_lag: number }>(serviceSql)).rows) {
    backlog.timersDue[row.service] = row.timers_due;
    backlog.relayLag[row.service] = row.relay_lag;
  }
  const { rows } = await db.query<{ bus: string | null }>(`SELECT to_regclass('${BUS_SCHEMA}.consumer_positions')::text AS bus`);
  if (rows[0].bus) backlog.busLag = Object.fromEntries((await db.query<{ group_name: string; lag: number }>(busSql)).rows.map((r) => [r.group_name, r.lag]));
  return backlog;
}

export const sum = (counts: Record<string, number> = {}): number => Object.values(counts).reduce((a, b) => a + b, 0);
export const backlogTotal = (b: Backlog): number => sum(b.timersDue) + sum(b.relayLag) + sum(b.busLag);

/** `12 (payments 10, accounts 2)`: the total and its non-zero parts, largest first. */
export function formatCounts(counts: Record<string, number> | undefined): string {
  if (!counts) return 'n/a';
  const parts = Object.entries(counts).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return parts.length === 0 ? '0' : `${sum(counts)} (${parts.map(([k, n]) => `${k} ${n}`).join(', ')})`;
}

export interface Drain {
  atEnd: Backlog;
  /** Since the load ended; absent when the backlog was still there at the deadline. */
  drainedMs?: number;
  /** What was left at the last poll (all zero when drained). */
  last: Backlog;
  timeoutMs: number;
}

/** Reads the backlog right away, then every `pollMs` until everything is zero or `timeoutMs` passed since `since`. */
export async function awaitDrain(db: Client, since: number, timeoutMs = 30_000, pollMs = 250): Promise<Drain> {
  const atEnd = await readBacklog(db);
  let last = atEnd;
  for (;;) {
    if (backlogTotal(last) === 0) return { atEnd, drainedMs: performance.now() - since, last, timeoutMs };
    if (performance.now() - since >= timeoutMs) return { atEnd, last, timeoutMs };
    await new Promise((r) => setTimeout(r, pollMs));
    last = await readBacklog(db);
  }
}
