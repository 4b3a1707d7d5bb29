import { getPostgreSQLEventStore, PostgreSQLEventStoreDefaultStreamVersion } from '@event-driven-io/emmett-postgresql';
import { asTransactional, CommandExecutor, Decider, DomainEvent, eventsourcingMigrations, PostgresEventStore, runMigrations, Transactional } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Pool } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * The event stores the append rows compare, each in its own schema of the bench database. `open` connects one
 * connection per appender (the stores take turns, and only one holds connections at a time: PostgreSQL's 100
 * connections are shared with the platform); an `Append` appends one small event to appender i's own stream, with the
 * stream's version tracked the way each library's write path expects it.
 */
export type Append = (appender: number) => Promise<void>;
export type TargetName = 'ours-executor' | 'ours-store' | 'emmett';
export type OpenTarget = () => Promise<{ append: Append; close(): Promise<void> }>;

type Ticked = DomainEvent<'Ticked', { n: number }>;
const ticker: Decider<number, 'tick', Ticked> = {
  initialState: 0,
  decide: (_command, n) => [{ type: 'Ticked', data: { n: n + 1 } }],
  evolve: (_n, event) => event.data.n,
};

const OURS_SCHEMA = 'bench_es';
const EMMETT_SCHEMA = 'bench_emmett';

/** The installed Emmett, for the row's label (its package.json is not among its exports). */
export const emmettVersion = (): string =>
  JSON.parse(readFileSync(join(dirname(require.resolve('@event-driven-io/emmett-postgresql')), '..', 'package.json'), 'utf8')).version;

/** `run` keeps the streams fresh on a reused database. */
export function appendTargets(databaseUrl: string, appenders: number, run: string): Record<TargetName, OpenTarget> {
  const storeVersions = new Array<number>(appenders).fill(0);
  const emmettVersions = new Array<bigint>(appenders).fill(PostgreSQLEventStoreDefaultStreamVersion);
  return {
    // The write path: advisory lock, read the stream's tail (state cache), decide, append, commit.
    'ours-executor': () =>
      openOurs(databaseUrl, appenders, (db, store) => {
        const executor = new CommandExecutor(db, store);
        return async (i) => void (await executor.execute({ decider: ticker, streamId: `Tick:${run}-x${i}`, command: 'tick' }));
      }),
    // The store alone, in a transaction, the expected version known from the last append.
    'ours-store': () =>
      openOurs(databaseUrl, appenders, (db, store) => async (i) => {
        const event: Ticked = { type: 'Ticked', data: { n: storeVersions[i] + 1 } };
        await db.transaction((tx) => store.append(tx, `Tick:${run}-s${i}`, storeVersions[i], [event]));
        storeVersions[i]++;
      }),
    emmett: () => openEmmett(databaseUrl, appenders, run, emmettVersions),
  };
}

/** Our store, opened like ServiceHost.open: a TypeORM DataSource on the service schema, the eventsourcing migrations. */
async function openOurs(databaseUrl: string, appenders: number, appender: (db: Transactional<EntityManager>, store: PostgresEventStore) => Append) {
  const dataSource = await openServiceDatabase({ url: databaseUrl, schema: OURS_SCHEMA, poolSizeMax: appenders, applicationName: 'bench-append' });
  const db = asTransactional(dataSource);
  await runMigrations(db, OURS_SCHEMA, [eventsourcingMigrations]);
  return { append: appender(db, new PostgresEventStore(OURS_SCHEMA)), close: () => dataSource.destroy() };
}

/**
 * Emmett's PostgreSQL store (`appendToStream` runs its append function in a transaction), its tables in their own
 * schema through the pool's search_path; the expected version is the `nextExpectedStreamVersion` of the last append.
 */
async function openEmmett(databaseUrl: string, appenders: number, run: string, versions: bigint[]) {
  const pool = new Pool({ connectionString: databaseUrl, max: appenders, options: `-c search_path=${EMMETT_SCHEMA}`, application_name: 'bench-append' });
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${EMMETT_SCHEMA}`);
  const store = getPostgreSQLEventStore(databaseUrl, { connectionOptions: { pool } });
  await store.schema.migrate();
  const append: Append = async (i) => {
    const event = { type: 'Ticked', data: { n: Number(versions[i]) + 1 } };
    versions[i] = (await store.appendToStream(`Tick-${run}-e${i}`, [event], { expectedStreamVersion: versions[i] })).nextExpectedStreamVersion;
  };
  const close = async () => {
    await store.close();
    await pool.end().catch(() => undefined); // an ambient pool may or may not be ended by the store
  };
  return { append, close };
}
