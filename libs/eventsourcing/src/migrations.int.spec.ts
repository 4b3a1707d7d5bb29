import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { eventsourcingMigrations } from './eventsourcing.migrations';
import { MigrationSet, runMigrations } from './migrations';
import { asTransactional } from './typeorm';
import { PostgresEventStore } from './event-store';

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

  it('refuses a set with a gap in its numbering', async () => {
    const gap: MigrationSet = { module: 'gap', migrations: [{ version: 2, name: 'x', sql: 'SELECT 1' }] };
    await expect(runMigrations(asTransactional(db.dataSource), 'svc', [gap])).rejects.toThrow(/numbered 1..n/);
  });
});
