import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSION } from '@payments/gateway';
import { Client } from 'pg';
import { basicAuth, createTestDatabase, http, TestDatabase } from '@payments/testing';
// The one harness that starts, SIGKILLs and restarts `npm start`'s process (the chaos runs' and the rail crash
// spec's): a test fixture of an app, reused here rather than copied.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { PlatformProcess } from '../../../apps/chaos/src/platform-process';
import type { PlatformApi } from './test-platform';
import { responseConformance } from './test-response-conformance';

/** The built launcher as a child process on a fresh test database, seen as the HTTP helpers see a platform. */
export interface LauncherPlatform extends PlatformApi {
  process: PlatformProcess;
  database: TestDatabase;
  stop(): Promise<void>;
}

/**
 * Test fixture: `npm start`'s process (dist/apps/launcher/src/main.js: run `npm run build` first) on a fresh database
 * of the test server, with the bus the environment selects (Kafka under CI, else the PostgreSQL log). `process.kill()`
 * is a real SIGKILL and `process.start()` brings it back on the same database, ports and credentials. `call` holds
 * every answer to the served OpenAPI document, as TestPlatform's does. `settings` are the launcher's environment,
 * `databaseSettings` PostgreSQL settings of the database (ALTER DATABASE … SET), for every session the launcher opens.
 */
export async function startLauncher(settings: NodeJS.ProcessEnv = {}, databaseSettings: Record<string, string> = {}): Promise<LauncherPlatform> {
  const database = await createTestDatabase('launcher');
  if (Object.keys(databaseSettings).length > 0) {
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      for (const [name, value] of Object.entries(databaseSettings)) await admin.query(`ALTER DATABASE "${database.name}" SET ${name} = '${value}'`);
    } finally {
      await admin.end();
    }
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-launcher-'));
  const sandbox = { clientId: `launcher-sandbox-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(24).toString('hex') };
  const production = { clientId: `launcher-production-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(24).toString('hex') };
  const child = await PlatformProcess.create({
    databaseUrl: database.url,
    kafkaBrokers: process.env.KAFKA_BROKERS,
    busNamespace: `${database.name}.`,
    sandbox,
    production,
    secretHashKey: randomBytes(32).toString('hex'),
    dataDir,
    extraEnv: settings,
  });
  await child.start();
  const conformance = responseConformance();
  const tenant = { sandbox: basicAuth(sandbox.clientId, sandbox.clientSecret), production: basicAuth(production.clientId, production.clientSecret) };
  return {
    process: child,
    database,
    url: `${child.origin}/${API_VERSION}`,
    tenant,
    call: async (method, path, options = {}) => {
      const url = `${child.origin}/${API_VERSION}${path}`;
      const result = await http(method, url, { auth: tenant.sandbox, ...options });
      await conformance.check(method, url, result);
      return result;
    },
    stop: async () => {
      await child.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
