import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eventually, freePort, http } from '@payments/testing';

const MAIN = resolve(__dirname, '../../../dist/apps/launcher/src/main.js');

/** A listening TCP socket of a process: address as printed by the kernel, decoded. */
interface Listener {
  address: string;
  port: number;
}

/** `0100007F:0BB8` (little-endian IPv4) or the 32-hex IPv6 form → address and port. */
function decode(hexAddress: string): Listener {
  const [host, port] = hexAddress.split(':');
  if (host.length === 8) {
    const bytes = Buffer.from(host, 'hex').reverse();
    return { address: [...bytes].join('.'), port: parseInt(port, 16) };
  }
  const words = host.match(/.{8}/g)!.map((w) => Buffer.from(w, 'hex').reverse().toString('hex'));
  const address = words.join('').match(/.{4}/g)!.join(':').replace(/\b0+(?=[0-9a-f])/g, '');
  return { address: address === '0:0:0:0:0:0:0:0' ? '::' : address === '0:0:0:0:0:0:0:1' ? '::1' : address, port: parseInt(port, 16) };
}

/** The TCP sockets `pid` itself listens on: its fds' socket inodes, looked up in /proc/<pid>/net/tcp{,6} (state 0A). */
function listenersOf(pid: number): Listener[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // the fd closed while we looked
    }
  }
  const listeners: Listener[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && inodes.has(fields[9])) listeners.push(decode(fields[1]));
    }
  }
  return listeners.sort((a, b) => a.port - b.port);
}

/**
 * `npm start` exposes nothing but its API and one ops port, both on loopback: the services talk in-process, so no
 * RPC or per-service ops port is bound, and a second instance (other PORT, ops port and data dir, the same service
 * port settings) starts while the first runs.
 */
describe('npm start listens on the API port and one ops port only (built launcher, embedded PostgreSQL)', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  let servicePorts: Record<string, string>;

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build (npm test does it first)`);
    // Both instances get the same service port settings: before, each bound them (and the second failed).
    servicePorts = {};
    for (const app of ['IDENTITY', 'ACCOUNTS', 'QUOTING', 'PAYMENTS', 'WEBHOOK_DISPATCHER', 'WALLET_AUTH', 'CARDS', 'AGENTS']) {
      servicePorts[`${app}_RPC_PORT`] = String(await freePort());
      servicePorts[`${app}_OPS_PORT`] = String(await freePort());
    }
  });
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGINT');
        await exited;
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<{ child: ChildProcess; api: number; ops: number; output: () => string }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-listen-'));
    chmodSync(dataDir, 0o755); // embedded PostgreSQL runs as the postgres user when we are root
    dirs.push(dataDir);
    const api = await freePort();
    const ops = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, ...servicePorts, PORT: String(api), GATEWAY_OPS_PORT: String(ops), EMBEDDED_POSTGRES_PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'SECRET_HASH_KEY', 'HOST', 'RPC_HOST']) delete env[name];
    for (const name of Object.keys(env)) if (name.startsWith('BOOTSTRAP_')) delete env[name];
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await eventually(async () => output.includes('payments-platform is up') || child.exitCode !== null, { timeoutMs: 90_000, what: 'startup' });
    if (child.exitCode !== null) throw new Error(`the launcher exited (${child.exitCode}):\n${output}`);
    return { child, api, ops, output: () => output };
  }

  it('binds exactly the API port and one ops port, on 127.0.0.1; the ops port serves every app; a second instance starts too', async () => {
    const first = await start();
    expect(listenersOf(first.child.pid!)).toEqual([
      { address: '127.0.0.1', port: Math.min(first.api, first.ops) },
      { address: '127.0.0.1', port: Math.max(first.api, first.ops) },
    ]);

    const ops = `http://127.0.0.1:${first.ops}`;
    expect(await http('GET', `${ops}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await http('GET', `${ops}/readyz`);
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', identity: 'ok', accounts: 'ok', agents: 'ok' } } });
    const metrics = (await http<string>('GET', `${ops}/metrics`)).body;
    for (const app of ['gateway', 'identity', 'accounts', 'quoting', 'payments', 'webhook-dispatcher', 'wallet-auth', 'cards', 'agents']) {
      expect(metrics).toContain(`process_cpu_user_seconds_total{app="${app}"}`);
    }
    // One HELP and TYPE line per family, however many apps report it (the exposition format requires it).
    expect(metrics.match(/^# TYPE process_cpu_user_seconds_total /gm)).toHaveLength(1);
    // The API port answers the API and /healthz for load balancers; readiness and metrics are not public.
    const api = `http://127.0.0.1:${first.api}`;
    expect((await http('GET', `${api}/healthz`)).status).toBe(200);
    expect((await http('GET', `${api}/metrics`)).status).toBe(404);
    expect((await http('GET', `${api}/readyz`)).status).toBe(404);

    const second = await start();
    expect(listenersOf(second.child.pid!)).toHaveLength(2);
    expect((await http('GET', `http://127.0.0.1:${second.ops}/readyz`)).status).toBe(200);
    expect(first.child.exitCode).toBeNull();
  }, 240_000);
});
