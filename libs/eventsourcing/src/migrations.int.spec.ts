import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { eventsourcingMigrations } from './eventsourcing.migrations';
import { MigrationSet, runMigrations } from './migrations';
import { asTransactional } from './typeorm';
import { PostgresEventStore } from './event-store';
import { Client } from 'pg';
import { createTestDatabase } from '@payments/testing';
import { DataSource } from 'typeorm';
import { OutboxRelay } from './outbox-relay';
import { dataSchema, defineCatalogue, defineEvent } from '@payments/contracts';

/** The relay publishes declared public events only: this test's one event type is one. */
const HAPPENED_PUBLIC = defineCatalogue('payments', [defineEvent({ service: 'payments', name: 'Happened', version: 1, visibility: 'public', data: dataSchema<{ tag: string }>('Happened'), description: 'test event' })]);

const v2: MigrationSet = {
  module: 'widgets',
  migrations: [
    { version: 1, name: 'widgets', sql: `CREATE TABLE {{schema}}.widgets (id text primary key)` },
    { version: 2, name: 'widgets_name', sql: `ALTER TABLE {{schema}}.widgets ADD COLUMN name text NOT NULL DEFAULT 'unnamed'` },
  ],
};

describe('numbered migrations (real PostgreSQL)', () => {
  let db: TestServiceDb;
  beforeAll(async () => {
    db = await openTestServiceDb('svc'); // runs eventsourcing migrations on an empty database
  });
  afterAll(() => db.close());

  it('applies on an empty database, then only what is new on a populated one, keeping data', async () => {
    const store = new PostgresEventStore('svc');
    await store.append(db.dataSource, 'S:1', 'no_stream', [{ type: 'Happened.v1', data: {} }]);
    const first = await runMigrations(asTransactional(db.dataSource), 'svc', [eventsourcingMigrations, { module: 'widgets', migrations: v2.migrations.slice(0, 1) }]);
    expect(first).toEqual(['widgets:0001_widgets']);
    await db.dataSource.query(`INSERT INTO svc.widgets (id) VALUES ('w1')`);
    const second = await runMigrations(asTransactional(db.dataSource), 'svc', [eventsourcingMigrations, v2]);
    expect(second).toEqual(['widgets:0002_widgets_name']);
    expect(await db.dataSource.query(`SELECT id, name FROM svc.widgets`)).toEqual([{ id: 'w1', name: 'unnamed' }]);
    expect(await store.readStream(db.dataSource, 'S:1')).toHaveLength(1);
    expect(await runMigrations(asTransactional(db.dataSource), 'svc', [eventsourcingMigrations, v2])).toEqual([]);
  });

  it('lets concurrent starters apply each migration exactly once', async () => {
    const set: MigrationSet = { module: 'race', migrations: [{ version: 1, name: 'race', sql: `CREATE TABLE {{schema}}.race (id int)` }] };
    const results = await Promise.all(Array.from({ length: 4 }, () => runMigrations(asTransactional(db.dataSource), 'svc', [set])));
    expect(results.flat()).toEqual(['race:0001_race']);
  });

  it('lets concurrent first starters create the schema and its bookkeeping on a database that has neither', async () => {
    // Two replicas of every app start at once on fresh databases: each creates the schema and schema_migrations.
    const set: MigrationSet = { module: 'fresh', migrations: [{ version: 1, name: 'fresh', sql: `CREATE TABLE {{schema}}.fresh (id int)` }] };
    for (let round = 0; round < 40; round++) {
      const schema = `fresh_${round}`;
      const results = await Promise.all(Array.from({ length: 8 }, () => runMigrations(asTransactional(db.dataSource), schema, [eventsourcingMigrations, set])));
      expect(results.flat().filter((v) => v.startsWith('fresh:'))).toEqual(['fresh:0001_fresh']);
    }
  });

  it('refuses a set with a gap in its numbering', async () => {
    const gap: MigrationSet = { module: 'gap', migrations: [{ version: 2, name: 'x', sql: 'SELECT 1' }] };
    await expect(runMigrations(asTransactional(db.dataSource), 'svc', [gap])).rejects.toThrow(/numbered 1..n/);
  });

  it('moves a checkpoint of the position-only reader before the events it skipped, so the relay publishes them', async () => {
    const database = await createTestDatabase();
    const ds = new DataSource({ type: 'postgres', url: database.url });
    await ds.initialize();
    const [older, younger] = [new Client({ connectionString: database.url }), new Client({ connectionString: database.url })];
    try {
      const legacy: MigrationSet = { module: 'eventsourcing', migrations: eventsourcingMigrations.migrations.slice(0, 1) };
      await runMigrations(asTransactional(ds), 'svc', [legacy]);
      const store = new PostgresEventStore('svc');
      await Promise.all([older.connect(), younger.connect()]);
      await store.append(ds, 'Before:1', 'no_stream', [{ type: 'Happened.v1', data: { tag: 'before' } }]);
      // The older transaction takes its xid first but inserts after the younger one, and commits first.
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await younger.query('BEGIN');
      await store.append(younger, 'Young:1', 'no_stream', [{ type: 'Happened.v1', data: { tag: 'skipped' } }]);
      await store.append(older, 'Old:1', 'no_stream', [{ type: 'Happened.v1', data: { tag: 'published' } }]);
      await older.query('COMMIT');
      await younger.query('COMMIT');
      // What the position-only relay stored: the highest position it published ('published'), past 'skipped'.
      await ds.query(`INSERT INTO svc.checkpoints (name, position) SELECT 'outbox-relay', max(global_position) FROM svc.events`);
      await store.append(ds, 'After:1', 'no_stream', [{ type: 'Happened.v1', data: { tag: 'after' } }]);

      expect(await runMigrations(asTransactional(ds), 'svc', [eventsourcingMigrations])).toContain('eventsourcing:0002_log_cursor_checkpoints');
      const published: string[] = [];
      const relay = new OutboxRelay({ db: ds, schema: 'svc', store, topic: 't', catalogue: HAPPENED_PUBLIC, publisher: { publish: async (_t, events) => void published.push(...events.map((e) => (e.data as { tag: string }).tag)) } });
      while ((await relay.runOnce()) > 0);
      expect(published).toEqual(expect.arrayContaining(['skipped', 'after']));
      expect(published).not.toContain('before');
    } finally {
      await Promise.all([older.end(), younger.end()]);
      await ds.destroy();
      await database.drop();
    }
  });
});
