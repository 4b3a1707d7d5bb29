import { runMigrations } from '@payments/eventsourcing';
import { createTestDatabase, eventually, TestDatabase } from '@payments/testing';
import { Pool } from 'pg';
import { describeEventBusContract } from '../event-bus.contract';
import { envelopeOf, uniqueSuffix } from '../event-bus.contract-fixtures';
import { pgLogBusMigrations } from './pg-log-bus.migrations';
import { PgLogEventBus } from './pg-log-event-bus';
import { pgTransactional } from './pg-transactional';

let database: TestDatabase;
const buses: PgLogEventBus[] = [];

beforeAll(async () => {
  database = await createTestDatabase('pp_bus_pg');
});
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  await database?.drop();
});

// Short lock retries so a restarted subscription takes over its group quickly.
const newBus = (): PgLogEventBus => {
  const bus = new PgLogEventBus(database.url, { pollIntervalMs: 250, lockRetryMs: 100 });
  buses.push(bus);
  return bus;
};

describeEventBusContract('PostgreSQL log (embedded)', async () => newBus(), { partitions: 1 });

describe('PgLogEventBus', () => {
  it('migrations apply on an empty database and are a no-op on a migrated one', async () => {
    const pool = new Pool({ connectionString: database.url, max: 2 });
    try {
      const schema = `bus_mig_${uniqueSuffix()}`;
      expect(await runMigrations(pgTransactional(pool), schema, [pgLogBusMigrations])).toEqual(['messaging:0001_pg_log_bus', 'messaging:0002_log_cursor_positions']);
      expect(await runMigrations(pgTransactional(pool), schema, [pgLogBusMigrations])).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('lets one consumer per (group, topic) run at a time and hands over when it stops', async () => {
    const [a, b] = [newBus(), newBus()];
    const topic = `lock.${uniqueSuffix()}`;
    const group = `lock.${uniqueSuffix()}`;
    const seenBy = { a: [] as string[], b: [] as string[] };
    const subscriptions = {
      a: await a.subscribe({ group, topics: [topic], handler: async (e) => void seenBy.a.push(e.eventId) }),
      b: await b.subscribe({ group, topics: [topic], handler: async (e) => void seenBy.b.push(e.eventId) }),
    };
    const first = [envelopeOf('Lock:1', 1), envelopeOf('Lock:1', 2)];
    await a.publish(topic, first);
    await eventually(async () => seenBy.a.length + seenBy.b.length >= 2, { what: 'the first batch' });
    // Whoever won the lock took both; the other one saw nothing.
    const winner = seenBy.a.length > 0 ? 'a' : 'b';
    const loser = winner === 'a' ? 'b' : 'a';
    expect(seenBy[winner]).toEqual(first.map((e) => e.eventId));
    expect(seenBy[loser]).toEqual([]);

    await subscriptions[winner].stop();
    const next = envelopeOf('Lock:1', 3);
    await a.publish(topic, [next]);
    await eventually(async () => seenBy[loser].includes(next.eventId), { what: 'the waiting consumer to take over' });
    expect(seenBy[loser]).toEqual([next.eventId]);
  });

  it('delivers what is published while a consumer handles a partial page at once, not at the next poll', async () => {
    const bus = new PgLogEventBus(database.url, { pollIntervalMs: 60_000, lockRetryMs: 100 });
    buses.push(bus);
    const admin = new Pool({ connectionString: database.url, max: 1 });
    // Past the xmin guard (log-reader.ts), which any transaction of the server can hold back for a moment: only
    // then is a missed wake-up, and not the guard, the reason a row would wait for the poll.
    const readable = (eventId: string) => eventually(async () => {
      const { rows } = await admin.query(`SELECT 1 FROM bus.messages WHERE event_id = $1 AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())`, [eventId]);
      return rows.length === 1;
    }, { what: 'the message past the xmin guard' });
    const topic = `busy.${uniqueSuffix()}`;
    const [first, second, third] = [1, 2, 3].map((v) => envelopeOf('Busy:1', v));
    const seen: string[] = [];
    try {
      await bus.subscribe({
        group: `busy.${uniqueSuffix()}`,
        topics: [topic],
        handler: async (e) => {
          seen.push(e.eventId);
          // Published and notified while this page is in hand: the consumer must not sleep through it.
          const next = e.eventId === first.eventId ? second : e.eventId === second.eventId ? third : undefined;
          if (next) {
            await bus.publish(topic, [next]);
            await readable(next.eventId);
          }
        },
      });
      await bus.publish(topic, [first]);
      await readable(first.eventId);
      await eventually(async () => seen.length >= 3, { timeoutMs: 20_000, what: 'three deliveries without a poll' });
      expect(seen).toEqual([first, second, third].map((e) => e.eventId));
    } finally {
      await admin.end();
    }
  });

  it('reconnects after its connections are killed and carries on from the stored position', async () => {
    const applicationName = `bus_kill_${uniqueSuffix()}`;
    const logged: string[] = [];
    const log = (level: string, message: string): void => void logged.push(`${level}: ${message}`);
    const bus = new PgLogEventBus(database.url, { pollIntervalMs: 250, lockRetryMs: 100, applicationName, log });
    buses.push(bus);
    const topic = `kill.${uniqueSuffix()}`;
    const group = `kill.${uniqueSuffix()}`;
    const seen: string[] = [];
    await bus.subscribe({ group, topics: [topic], handler: async (e) => void seen.push(e.eventId) });
    const [before, after] = [envelopeOf('Kill:1', 1), envelopeOf('Kill:1', 2)];
    await bus.publish(topic, [before]);
    const admin = new Pool({ connectionString: database.url, max: 1 });
    try {
      await eventually(async () => {
        const { rows } = await admin.query(`SELECT position FROM bus.consumer_positions WHERE group_name = $1`, [group]);
        return rows.length === 1 && rows[0].position !== '0';
      }, { what: 'the first position to be stored' });
      const { rows } = await admin.query(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE application_name LIKE $1`,
        [`${applicationName}%`],
      );
      expect(rows.length).toBeGreaterThanOrEqual(2); // the consumer session and the listener at least
    } finally {
      await admin.end();
    }
    await newBus().publish(topic, [after]);
    await eventually(async () => seen.includes(after.eventId), { what: 'delivery after the reconnect' });
    expect(seen).toEqual([before.eventId, after.eventId]);
    expect(logged).toContain('error: bus consumer failed; restarting from the stored position');
  });
});
