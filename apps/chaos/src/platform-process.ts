import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { AppProcess, UnexpectedExit } from './app-process';

/** The repository root, from dist/apps/chaos/src (built) or apps/chaos/src (jest runs the sources). */
export const REPO_ROOT = resolve(__dirname, __dirname.includes(`${sep}dist${sep}`) ? '../../../..' : '../../..');
export const LAUNCHER_MAIN = resolve(REPO_ROOT, 'dist/apps/launcher/src/main.js');
export const ADMIN_MAIN = resolve(REPO_ROOT, 'dist/apps/launcher/src/admin.js');

/**
 * Ports below Linux's ephemeral range (as libs/testing's freePort, which is test-only: it needs jest's globals).
 * The child binds them a few seconds after we pick them; an ephemeral port could meanwhile be taken by one of the
 * many outgoing PostgreSQL or Kafka connections, a port from this range cannot.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 };
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found in ${PORT_RANGE.from}-${PORT_RANGE.to}`);
}

export interface PlatformProcessOptions {
  databaseUrl: string;
  kafkaBrokers?: string;
  busNamespace: string;
  sandbox: { clientId: string; clientSecret: string };
  production: { clientId: string; clientSecret: string };
  secretHashKey: string;
  dataDir: string;
  /** Echo the child's output (stdout and stderr) to ours. */
  verbose?: boolean;
  /** More settings (KYC_APPROVALS_REQUIRED, RAILS_CONFIG…), applied last. */
  extraEnv?: NodeJS.ProcessEnv;
}

/**
 * A run's settings of the platform, whether one process (PlatformProcess) or a cluster of them (ClusterPlatform),
 * except its ports and `extraEnv` (applied last by each): this run's database, bus and credentials, and fast clocks.
 */
export function runEnv(options: Omit<PlatformProcessOptions, 'extraEnv' | 'verbose'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl,
    LOG_LEVEL: 'warn',
    SANDBOX_TIME_SCALE: '0.01', // rails settle in tens of milliseconds
    WEBHOOK_BACKOFF_SCALE: '0.001',
    WEBHOOK_TIMEOUT_MS: '5000', // our receiver answers at once; a shorter timeout also shortens the lease after a kill
    RATE_LIMIT_PER_SECOND: '0', // the workload tests crashes, not the rate limiter
    EGRESS_ALLOW_PRIVATE_NETWORKS: 'true', // the webhook receiver listens on 127.0.0.1
    // Every service pool, listener and bus loop is a connection (about 80 at the default of 10): keep a run small
    // on a PostgreSQL server that test suites and other runs share.
    DB_POOL_SIZE_MAX: process.env.DB_POOL_SIZE_MAX || '3',
    BUS_NAMESPACE: options.busNamespace,
    BOOTSTRAP_SANDBOX_CLIENT_ID: options.sandbox.clientId,
    BOOTSTRAP_SANDBOX_CLIENT_SECRET: options.sandbox.clientSecret,
    BOOTSTRAP_PRODUCTION_CLIENT_ID: options.production.clientId,
    BOOTSTRAP_PRODUCTION_CLIENT_SECRET: options.production.clientSecret,
    SECRET_HASH_KEY: options.secretHashKey,
    DATA_DIR: options.dataDir,
    // Node's compile cache, shared by every run's processes: a restart parses the platform's modules from it instead
    // of from source (written when a process exits cleanly, so a run's first clean stop fills it for the next ones).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'pp-chaos-compile-cache'),
  };
  // Only this run's bus: Kafka when the caller has a broker, else the PostgreSQL log in the run's database.
  if (options.kafkaBrokers) env.KAFKA_BROKERS = options.kafkaBrokers;
  else delete env.KAFKA_BROKERS;
  for (const name of ['PUBLIC_URL', 'EMBEDDED_POSTGRES_PORT', 'RPC_HOST', 'RPC_BIND_PORT', 'QUOTE_TTL_MS', 'IDEMPOTENCY_TTL_HOURS', 'RPC_TIMEOUT_MS']) delete env[name];
  for (const name of Object.keys(env)) if (/_(RPC_HOST|RPC_PORT|OPS_PORT)$/.test(name)) delete env[name];
  return env;
}

/**
 * The built launcher (`npm start`'s process) as a child, always on the same database, ports and credentials, so it
 * can be SIGKILLed and started again as if the machine had crashed and come back.
 */
export class PlatformProcess {
  private readonly process: AppProcess;

  private constructor(readonly env: NodeJS.ProcessEnv, verbose?: boolean) {
    this.process = new AppProcess({ label: 'platform', main: LAUNCHER_MAIN, cwd: REPO_ROOT, env, opsOrigin: `http://127.0.0.1:${env.GATEWAY_OPS_PORT}`, verbose });
  }

  static async create(options: PlatformProcessOptions): Promise<PlatformProcess> {
    if (!existsSync(LAUNCHER_MAIN)) throw new Error(`${LAUNCHER_MAIN} is missing: run npm run build first`);
    const port = async () => String(await freePort());
    const env: NodeJS.ProcessEnv = {
      ...runEnv(options),
      PORT: await port(),
      IDENTITY_RPC_PORT: await port(),
      ACCOUNTS_RPC_PORT: await port(),
      QUOTING_RPC_PORT: await port(),
      PAYMENTS_RPC_PORT: await port(),
      WEBHOOK_DISPATCHER_RPC_PORT: await port(),
      WALLET_AUTH_RPC_PORT: await port(),
      CARDS_RPC_PORT: await port(),
      AGENTS_RPC_PORT: await port(),
      IDENTITY_OPS_PORT: '0',
      GATEWAY_OPS_PORT: await port(), // /readyz, which start() polls
      ACCOUNTS_OPS_PORT: '0',
      QUOTING_OPS_PORT: '0',
      PAYMENTS_OPS_PORT: '0',
      WEBHOOK_DISPATCHER_OPS_PORT: '0',
      WALLET_AUTH_OPS_PORT: '0',
      CARDS_OPS_PORT: '0',
      AGENTS_OPS_PORT: '0',
      ...options.extraEnv,
    };
    return new PlatformProcess(env, options.verbose);
  }

  get origin(): string {
    return `http://127.0.0.1:${this.env.PORT}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** How many times it was started. */
  get starts(): number {
    return this.process.starts;
  }

  /** The last lines the child printed, for failure messages. */
  output(): string {
    return this.process.output();
  }

  /** Exits no one asked for (a crash at start or under a fault), in the order they happened. */
  get unexpectedExits(): UnexpectedExit[] {
    return this.process.unexpectedExits;
  }

  /** The one ops port of the launcher (/healthz, /readyz, /metrics of every app). */
  get opsOrigin(): string {
    return `http://127.0.0.1:${this.env.GATEWAY_OPS_PORT}`;
  }

  /** Spawns the launcher and waits until its /readyz answers 200 (every dependency up). */
  async start(timeoutMs = 120_000): Promise<void> {
    if (this.running) throw new Error('platform already running');
    await this.process.start(timeoutMs);
  }

  /** SIGKILL: no shutdown hooks, no flushing, connections dropped mid-request. */
  async kill(): Promise<void> {
    await this.process.kill();
  }

  /** SIGTERM (a clean stop), SIGKILL if it does not exit in time. */
  async stop(timeoutMs = 30_000): Promise<void> {
    await this.process.stop(timeoutMs);
  }
}

/** `npm run admin -- ARGS` (built) on the platform's database and settings: its exit code and its output. */
export async function runAdmin(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string; output: string }> {
  const child = spawn(process.execPath, [ADMIN_MAIN, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  child.stdout!.on('data', (d) => ((stdout += d), (output += d)));
  child.stderr!.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
  return { code, stdout, output };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
