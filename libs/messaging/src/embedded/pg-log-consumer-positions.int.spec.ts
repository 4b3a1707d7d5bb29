import { EventEnvelope } from '@payments/eventsourcing';
import { createTestDatabase, eventually, TestDatabase } from '@payments/testing';
import { Pool } from 'pg';
import { EffectLedger, envelopeOf, uniqueSuffix } from '../event-bus.contract-fixtures';
import { PgLogEventBus, PgLogEventBusOptions } from './pg-log-event-bus';

/** When an embedded-bus consumer stores its position (issue #30: at most once a store interval while pages flow). */
let database: TestDatabase;
let pool: Pool;
const buses: PgLogEventBus[] = [];

beforeAll(async () => {
  database = await createTestDatabase('pp_bus_pos');
  pool = new Pool({ connectionString: database.url, max: 3 });
});
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  await pool?.end();
  await database?.drop();
});

const busOf = (options: PgLogEventBusOptions): PgLogEventBus => {
  const bus = new PgLogEventBus(database.url, { lockRetryMs: 100, ...options });
  buses.push(bus);
  return bus;
};

const storedPosition = async (schema: string, group: string): Promise<string | undefined> =>
  (await pool.query(`SELECT position::text FROM ${schema}.consumer_positions WHERE group_name = $1`, [group])).rows[0]?.position;

it('stores the position once for several full pages handled in quick succession, and at once when it goes idle', async () => {
  const schema = `bus_pos_${uniqueSuffix()}`;
  const bus = busOf({ schema, batchSize: 5, pollIntervalMs: 300 });
  await bus.migrate();
  // Every UPDATE of a position, counted.
  await pool.query(`CREATE TABLE ${schema}.position_updates (position bigint);
    CREATE FUNCTION ${schema}.count_update() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO ${schema}.position_updates VALUES (NEW.position); RETURN NEW; END $$;
    CREATE TRIGGER counted AFTER UPDATE ON ${schema}.consumer_positions FOR EACH ROW EXECUTE FUNCTION ${schema}.count_update();`);
  const topic = `pos.${uniqueSuffix()}`;
  const group = `pos.${uniqueSuffix()}`;
  const seen: string[] = [];
  await bus.publish(topic, Array.from({ length: 30 }, (_, i) => envelopeOf('Pos:1', i + 1))); // six full pages
  await bus.subscribe({ group, topics: [topic], handler: async (e) => void seen.push(e.eventId) });
  await eventually(async () => seen.length === 30, { what: 'the thirty messages' });
  const [last] = (await pool.query(`SELECT max(position)::text AS last FROM ${schema}.messages WHERE topic = $1`, [topic])).rows;
  // Idle after the last page: the read after the first poll pause with no NOTIFY stores it.
  await eventually(async () => (await storedPosition(schema, group)) === last.last, { what: 'the position stored once idle' });
  const updates = (await pool.query(`SELECT position::text FROM ${schema}.position_updates`)).rows;
  expect(updates).toEqual([{ position: last.last }]); // not one per page (six before issue #30's change)
});

it('a consumer dropped without stopping (its session killed) leaves the unstored messages to be redelivered; the inbox keeps one effect', async () => {
  const schema = `bus_drop_${uniqueSuffix()}`;
  const applicationName = `bus_drop_${uniqueSuffix()}`;
  // A long store interval: nothing is stored while it runs.
  const bus = busOf({ schema, batchSize: 5, pollIntervalMs: 250, positionStoreIntervalMs: 60_000, applicationName });
  const effects = await EffectLedger.create(pool);
  const topic = `drop.${uniqueSuffix()}`;
  const group = `drop.${uniqueSuffix()}`;
  const written = Array.from({ length: 12 }, (_, i) => envelopeOf('Drop:1', i + 1)); // two full pages and a partial one
  const deliveries: EventEnvelope[] = [];
  let release!: () => void;
  const lastHeld = new Promise<void>((resolve) => (release = resolve));
  await bus.subscribe({
    group,
    topics: [topic],
    handler: async (envelope) => {
      deliveries.push(envelope);
      await effects.apply(group, envelope);
      if (deliveries.length === 12) await lastHeld; // the consumer is busy when its session dies
    },
  });
  try {
    await bus.publish(topic, written);
    await eventually(async () => deliveries.length === 12, { what: 'the first deliveries' });
    expect(await storedPosition(schema, group)).toBe('0'); // handled, not stored yet (10 before issue #30's change)
    // SIGKILL-like: the consumer's session (not the listener's) ends without the loop's stop storing anything.
    const { rows } = await pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND query NOT ILIKE 'LISTEN%'`, [applicationName]);
    expect(rows.length).toBeGreaterThanOrEqual(1);
  } finally {
    release();
  }
  await eventually(async () => deliveries.length >= 24, { what: 'the unstored messages redelivered' });
  expect(deliveries.slice(12).map((e) => e.eventId)).toEqual(written.map((e) => e.eventId));
  expect((await effects.countsByEvent(group)).map(([, n]) => n)).toEqual(written.map(() => 1));
});
