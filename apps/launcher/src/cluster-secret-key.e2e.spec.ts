import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const mainOf = (app: string) => resolve(__dirname, `../../../dist/apps/${app}/src/main.js`);

/** The built cluster entry point of `app`, run with `env` until it exits (it must: nothing here can start). */
function run(app: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [mainOf(app)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => (clearTimeout(timer), done({ code, output })));
  });
}

/**
 * Fail closed: a cluster pod without SECRET_HASH_KEY, or with a short one, exits at start with a message, before it
 * touches the database or the bus (both point at closed loopback ports here; nothing may be reached).
 */
describe('cluster apps refuse to start without a 32-byte SECRET_HASH_KEY', () => {
  // Every cluster app: all of them speak authenticated RPC under a key derived from SECRET_HASH_KEY.
  const APPS = ['gateway', 'identity', 'accounts', 'quoting', 'payments', 'webhook-dispatcher', 'wallet-auth', 'cards', 'agents'];
  const base = {
    PATH: process.env.PATH,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none',
    KAFKA_BROKERS: '127.0.0.1:9',
    DATA_DIR: resolve(__dirname, '../../../.data-never-written'),
    LOG_LEVEL: 'info',
  };
  beforeAll(() => {
    for (const app of APPS) if (!existsSync(mainOf(app))) throw new Error(`${mainOf(app)} is missing: run npm run build (npm test does it first)`);
  });

  it.each(APPS)('%s: no key → exit 1 naming SECRET_HASH_KEY; a 16-byte key → exit 1 naming its length', async (app) => {
    const missing = await run(app, base);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('SECRET_HASH_KEY is required in cluster mode');
    const short = await run(app, { ...base, SECRET_HASH_KEY: randomBytes(16).toString('hex') });
    expect(short.code).toBe(1);
    expect(short.output).toContain('SECRET_HASH_KEY must be at least 64 hex characters (32 bytes)');
    expect(existsSync(base.DATA_DIR)).toBe(false); // no key was generated
  });
});
