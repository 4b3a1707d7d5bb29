import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { basicAuth, eventually, freePort, http } from '@payments/testing';

const MAIN = resolve(__dirname, '../../../dist/apps/launcher/src/main.js');

/**
 * `npm start` for real: the built launcher in its own process with no DATABASE_URL and no KAFKA_BROKERS, so it
 * runs embedded PostgreSQL in its data dir and the PostgreSQL-log bus. Stopped with SIGINT, started again.
 */
describe('npm start (built launcher, embedded PostgreSQL)', () => {
  let dataDir: string;
  let ports: { http: number; rpc: number; accounts: number; quoting: number; payments: number; webhooks: number; walletAuth: number; cards: number; agents: number; pg: number };

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does it first)`);
    dataDir = mkdtempSync(join(tmpdir(), 'pp-start-'));
    chmodSync(dataDir, 0o755); // embedded PostgreSQL runs as the postgres user when we are root
    ports = { http: await freePort(), rpc: await freePort(), accounts: await freePort(), quoting: await freePort(), payments: await freePort(), webhooks: await freePort(), walletAuth: await freePort(), cards: await freePort(), agents: await freePort(), pg: await freePort() };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function start(): { child: ChildProcess; output: () => string } {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(ports.http), IDENTITY_RPC_PORT: String(ports.rpc), IDENTITY_OPS_PORT: '0', GATEWAY_OPS_PORT: '0', ACCOUNTS_RPC_PORT: String(ports.accounts), ACCOUNTS_OPS_PORT: '0', QUOTING_RPC_PORT: String(ports.quoting), QUOTING_OPS_PORT: '0', PAYMENTS_RPC_PORT: String(ports.payments), PAYMENTS_OPS_PORT: '0', WEBHOOK_DISPATCHER_RPC_PORT: String(ports.webhooks), WEBHOOK_DISPATCHER_OPS_PORT: '0', WALLET_AUTH_RPC_PORT: String(ports.walletAuth), WALLET_AUTH_OPS_PORT: '0', CARDS_RPC_PORT: String(ports.cards), CARDS_OPS_PORT: '0', AGENTS_RPC_PORT: String(ports.agents), AGENTS_OPS_PORT: '0', EMBEDDED_POSTGRES_PORT: String(ports.pg), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'SECRET_HASH_KEY']) delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('BOOTSTRAP_')) delete env[name];
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    return { child, output: () => output };
  }

  async function stop(child: ChildProcess): Promise<number | null> {
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGINT');
    return exited;
  }

  const portOpen = (port: number) =>
    new Promise<boolean>((r) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), r(true)));
      socket.once('error', () => r(false));
    });

  it('prints the URL and sandbox credentials, serves /config, survives a restart and leaves no postgres behind', async () => {
    const first = start();
    await eventually(async () => first.output().includes('payments-platform is up'), { timeoutMs: 60_000, what: `startup; output so far:\n${first.output()}` });
    const creds = JSON.parse(readFileSync(join(dataDir, 'bootstrap-credentials.json'), 'utf8'));
    expect(first.output()).toContain(`http://127.0.0.1:${ports.http}/2025-10-13`);
    expect(first.output()).toContain(`${creds.SANDBOX.clientId}:${creds.SANDBOX.clientSecret}`);
    const base = `http://127.0.0.1:${ports.http}/2025-10-13`;
    const auth = basicAuth(creds.SANDBOX.clientId, creds.SANDBOX.clientSecret);

    const patched = await http('PATCH', `${base}/config`, { auth, body: { webhookEndpoint: 'https://hooks.example/pp' } });
    expect(patched.status).toBe(200);
    expect((await http('GET', `${base}/config`, { auth: basicAuth(creds.SANDBOX.clientId, 'wrong') })).status).toBe(401);

    expect(await stop(first.child)).toBe(0);
    expect(await portOpen(ports.pg)).toBe(false); // embedded PostgreSQL went down with it

    const second = start();
    try {
      await eventually(async () => second.output().includes('payments-platform is up'), { timeoutMs: 60_000, what: 'restart' });
      const after = await http('GET', `${base}/config`, { auth });
      expect(after.status).toBe(200);
      expect(after.body.webhookEndpoint).toBe('https://hooks.example/pp');
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
    expect(await portOpen(ports.pg)).toBe(false);
  }, 150_000);
});
