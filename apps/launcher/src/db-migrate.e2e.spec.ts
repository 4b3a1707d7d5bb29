import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { migrationsInDatabase } from '@payments/platform';
import { createTestDatabase, TestDatabase } from '@payments/testing';

const ADMIN = resolve(__dirname, '../../../dist/apps/launcher/src/admin.js');
/** The gateway's schema and every service's: what a cluster's pods migrate at start. */
const SCHEMAS = ['accounts', 'agents', 'cards', 'gateway', 'identity', 'payments', 'quoting', 'wallet_auth', 'webhooks'];

/**
 * `npm run admin -- db:migrate` as built, on a real PostgreSQL database: what the Helm chart's pre-install and
 * pre-upgrade Job runs so that a release's pods never race a schema change.
 */
describe('npm run admin -- db:migrate', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    if (!existsSync(ADMIN)) throw new Error(`${ADMIN} is missing: run npm run build (npm test does it first)`);
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'pp-migrate-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // As in the Job: DATABASE_URL and nothing secret (no SECRET_HASH_KEY), no bus to reach.
  const migrate = () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, DATA_DIR: join(dataDir, 'data'), KAFKA_BROKERS: '', LOG_LEVEL: 'silent' };
    delete env.SECRET_HASH_KEY;
    return spawnSync(process.execPath, [ADMIN, 'db:migrate'], { env, encoding: 'utf8', timeout: 60_000 });
  };
  const rows = async () => {
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const union = SCHEMAS.map((s) => `SELECT '${s}' AS schema, module, version, applied_at FROM ${s}.schema_migrations`).join(' UNION ALL ');
      return (await db.query(`${union} ORDER BY 1, 2, 3`)).rows;
    } finally {
      await db.end();
    }
  };

  it('creates every service schema on an empty database, reports what it applied, and is a no-op the second time', async () => {
    expect(await migrationsInDatabase(database.url)).toEqual({});
    const first = migrate();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const { applied } = JSON.parse(first.stdout);
    expect(Object.keys(applied).sort()).toEqual(SCHEMAS);
    for (const schema of SCHEMAS) expect({ schema, eventStore: applied[schema].includes('eventsourcing:0001_event_store') || schema === 'gateway' }).toEqual({ schema, eventStore: true });
    expect(await migrationsInDatabase(database.url)).toEqual(applied); // all of it, and only it, was applied by this run
    // The Job needs no key and no writable disk: nothing was generated into DATA_DIR.
    expect(readdirSync(dataDir)).toEqual([]);

    const before = await rows();
    const second = migrate();
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ applied: Object.fromEntries(SCHEMAS.map((s) => [s, []])) });
    expect(await rows()).toEqual(before); // not one migration re-applied (same applied_at)
  });

  it('leaves the pods of every service nothing to migrate when they start', async () => {
    const migrated = await migrationsInDatabase(database.url);
    expect(Object.keys(migrated).sort()).toEqual(SCHEMAS);
    const { startTestPlatformOn } = await import('./test-start-on');
    const running = await startTestPlatformOn(database.url, mkdtempSync(join(dataDir, 'platform-')));
    try {
      const { bus, ...afterStart } = await migrationsInDatabase(database.url);
      expect(bus).toBeDefined(); // the PostgreSQL-log bus of this one-process run migrates itself; a cluster uses Kafka
      expect(afterStart).toEqual(migrated);
    } finally {
      await running.stop();
    }
  });
});
