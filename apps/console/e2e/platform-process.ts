import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, eventually, freePort, TestDatabase } from '@payments/testing';

const DIST = resolve(__dirname, '../../../dist/apps/launcher/src');
const run = promisify(execFile);

export interface Credential {
  clientId: string;
  clientSecret: string;
}

/** `npm start`'s process, built (dist), on a fresh database of the test server, as a person would run it. */
export interface PlatformProcess {
  origin: string;
  sandbox: Credential;
  production: Credential;
  /** `npm run admin -- operator:create` against the same database. */
  createOperator(name: string, role: 'ADMIN' | 'REVIEWER' | 'VIEWER'): Promise<Credential & { id: string }>;
  output(): string;
  stop(): Promise<void>;
}

export async function startPlatformProcess(extraEnv: Record<string, string> = {}): Promise<PlatformProcess> {
  const database: TestDatabase = await createTestDatabase('pp_console');
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-console-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', DB_POOL_SIZE_MAX: '3', ...extraEnv };
  for (const app of ['IDENTITY', 'ACCOUNTS', 'QUOTING', 'PAYMENTS', 'WEBHOOK_DISPATCHER', 'WALLET_AUTH', 'CARDS', 'AGENTS']) {
    env[`${app}_RPC_PORT`] = String(await freePort());
    env[`${app}_OPS_PORT`] = '0';
  }
  env.GATEWAY_OPS_PORT = '0';
  // `npm start`'s bus (the embedded log on PostgreSQL): this test is about the console, not the broker.
  for (const name of ['KAFKA_BROKERS', 'SECRET_HASH_KEY']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('BOOTSTRAP_')) delete env[name];
  const child: ChildProcess = spawn(process.execPath, [join(DIST, 'main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const died = exited.then(() => Promise.reject(new Error(`the platform exited before it was up:\n${output}`)));
  await Promise.race([eventually(async () => output.includes('payments-platform is up'), { timeoutMs: 90_000, what: 'the platform to start' }), died]);
  died.catch(() => undefined); // a later exit (stop) is not a failure
  const creds = JSON.parse(readFileSync(join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
  return {
    origin: `http://127.0.0.1:${port}`,
    sandbox: creds.SANDBOX,
    production: creds.PRODUCTION,
    output: () => output,
    createOperator: async (name, role) => {
      const { stdout } = await run(process.execPath, [join(DIST, 'admin.js'), 'operator:create', '--name', name, '--role', role], { env });
      const created = JSON.parse(stdout);
      return { id: created.operatorId ?? created.id, clientId: created.clientId, clientSecret: created.clientSecret };
    },
    stop: async () => {
      child.kill('SIGINT');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}
