import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startPlatform } from '@payments/platform';
import { createLogger, loadConfig } from '@payments/runtime';
import { Client } from 'pg';
import type { AppendReport, AppendSpec } from './append-load';
import { awaitDrain } from './backlog';
import type { LoadResult, LoadSpec } from './load';
import { REFERENCE_ACCOUNTS, referenceAccountId } from './reference-data';
import { moneySetup, MoneySetup } from './money-setup';
import { appendTable, backlogTable, loadTable, Row, sqlTable, sustainedTable } from './report';
import { sustainedRun } from './sustained';
import { countSql, ignoreClient, installSqlCounter, SqlCounts, takeSqlProfile } from './sql-counter';
import { pgStatementsReport, pgStatementsSettings, resetPgStatements } from './pg-statements';
import { postmasterPidOf, processCpuUs, serverCpuSpentUs, serverCpuUs } from './process-cpu';

installSqlCounter(); // before the platform opens its pools: every statement it sends is counted

/**
 * `npm run bench`: the platform's hot paths next to reference rows measured in the same run on the same PostgreSQL —
 * a minimal node:http + pg service doing the same logical work (apps/bench/src/reference.ts) — with the load generator
 * in its own process (load.ts). Absolute numbers on a shared 2-core machine are noisy; the ratios are what to compare
 * between commits. Write rows also report the asynchronous backlog they leave (backlog.ts); the event-store append
 * rows compare our store with Emmett's (append-load.ts); BENCH_SUSTAINED_S adds a sustained row (sustained.ts).
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const SUSTAINED_S = Number(process.env.BENCH_SUSTAINED_S ?? 0);
const APPENDERS = 16;
const run = promisify(execFile);

type Spec = Omit<LoadSpec, 'durationS' | 'connections'>;

async function load(spec: Spec, durationS = DURATION_S): Promise<LoadResult> {
  const { stdout } = await run(process.execPath, [join(__dirname, 'load.js'), JSON.stringify({ ...spec, durationS, connections: CONNECTIONS })], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as LoadResult;
}

/** The processes whose CPU a row reports besides the platform's own: the reference service and PostgreSQL. */
const measured: { referencePid?: number; postmasterPid?: number } = {};

/**
 * A row, with the CPU time per request answered of the process that served it (the platform, whole, in this process;
 * or the reference's) and of the PostgreSQL backends (all of them: the platform's asynchronous side included). Other
 * processes on a shared machine disturb CPU per request far less than req/s, and on a CPU-bound machine its sum is
 * what bounds throughput (issue #30's measured reason).
 */
async function measure(scenario: string, spec: Spec, reference?: string): Promise<Row> {
  const isReference = scenario.startsWith('reference');
  const ownCpu = process.cpuUsage();
  const referenceCpu = measured.referencePid === undefined ? undefined : processCpuUs(measured.referencePid);
  const dbCpu = measured.postmasterPid === undefined ? undefined : serverCpuUs(measured.postmasterPid);
  const sql = countSql();
  const result = await load(spec);
  const own = process.cpuUsage(ownCpu);
  const referenceAfter = measured.referencePid === undefined ? undefined : processCpuUs(measured.referencePid);
  const dbSpent = dbCpu && serverCpuSpentUs(dbCpu, serverCpuUs(measured.postmasterPid!));
  const statements = sql().statements;
  const requests = result.rps * DURATION_S;
  if (requests === 0) return { scenario, reference, ...result };
  const serviceUs = isReference ? (referenceCpu !== undefined && referenceAfter !== undefined ? referenceAfter - referenceCpu : undefined) : own.user + own.system;
  const cpu = {
    ...(serviceUs !== undefined ? { cpuUsPerRequest: Math.round(serviceUs / requests) } : {}),
    ...(dbSpent !== undefined ? { dbCpuUsPerRequest: Math.round(dbSpent / requests) } : {}),
  };
  if (isReference) return { scenario, reference, ...result, ...cpu };
  return { scenario, reference, ...result, ...cpu, statementsPerRequest: statements / requests };
}

/** Transactions the payments service holds: a write row's count of transfer-outs is the difference. */
const transactionCount = async (db: Client) => Number((await db.query(`SELECT count(*)::int AS n FROM payments.transactions`)).rows[0].n);

/**
 * A write row, then the backlog it left, until drained (the platform's asynchronous side keeping up or not), with the
 * SQL the platform sent per transaction created: while the load ran, and in all once the backlog drained.
 */
async function measureWrite(db: Client, scenario: string, spec: Spec, reference: string): Promise<Row> {
  const before = await transactionCount(db);
  await resetPgStatements(db);
  const window = countSql();
  const row = await measure(scenario, spec, reference);
  const duringLoad = window();
  const drain = await awaitDrain(db, performance.now());
  const total = window();
  const created = (await transactionCount(db)) - before;
  const profile = takeSqlProfile(created);
  if (profile.length > 0) process.stderr.write(`\nSQL per transaction, ${scenario}:\n${profile.join('\n')}\n`);
  const server = await pgStatementsReport(db, created);
  if (server.length > 0) process.stderr.write(`\nPostgreSQL time per transaction, ${scenario}:\n${server.join('\n')}\n`);
  const per = (c: SqlCounts) => ({
    statements: created ? c.statements / created : 0,
    commits: created ? c.commits / created : 0,
    requestStatements: created ? c.requestStatements / created : 0,
    requestCommits: created ? c.requestCommits / created : 0,
  });
  return { ...row, drain, sql: { created, duringLoad: per(duringLoad), total: per(total) } };
}

/** The append rows, in their own process like the load generator; the last stdout line is the report. */
async function appendRows(databaseUrl: string): Promise<AppendReport> {
  const spec: AppendSpec = { databaseUrl, appenders: APPENDERS, durationS: DURATION_S };
  const { stdout } = await run(process.execPath, [join(__dirname, 'append-load.js'), JSON.stringify(spec)], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as AppendReport;
}

/** Starts the reference service in its own process on the platform's database; resolves with its URL. */
function startReference(databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(__dirname, 'reference.js'), databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the reference service exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const port = /ready (\d+)/.exec(chunk.toString())?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, child });
    });
  });
}

/** A port free on loopback now: two benches (or a bench and a test run) on one machine must not share ports. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The RPC ports and the embedded PostgreSQL's: the environment's when set, else free ones. */
async function ports(): Promise<Record<string, string>> {
  const names = ['IDENTITY', 'ACCOUNTS', 'QUOTING', 'PAYMENTS', 'WEBHOOK_DISPATCHER', 'WALLET_AUTH', 'CARDS', 'AGENTS'].map((s) => `${s}_RPC_PORT`).concat('EMBEDDED_POSTGRES_PORT');
  const chosen: Record<string, string> = {};
  for (const name of names) chosen[name] = process.env[name] ?? String(await freePort());
  return chosen;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  chmodSync(dataDir, 0o755); // as root, embedded PostgreSQL runs as the postgres user, which must enter it
  const config = loadConfig({ ...process.env, ...(await ports()), PORT: '0', GATEWAY_OPS_PORT: '0', IDENTITY_OPS_PORT: '0', ACCOUNTS_OPS_PORT: '0', QUOTING_OPS_PORT: '0', PAYMENTS_OPS_PORT: '0', WEBHOOK_DISPATCHER_OPS_PORT: '0', WALLET_AUTH_OPS_PORT: '0', CARDS_OPS_PORT: '0', AGENTS_OPS_PORT: '0', SANDBOX_TIME_SCALE: '0.01', DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  const platform = await startPlatform({ config, logger: createLogger('bench', 'silent'), embeddedPostgresSettings: pgStatementsSettings() });
  const reference = await startReference(platform.databaseUrl);
  measured.referencePid = reference.child.pid;
  measured.postmasterPid = postmasterPidOf(join(dataDir, 'postgres'));
  // Connected up front: under load the platform and the references take most of PostgreSQL's connections.
  const db = new Client({ connectionString: platform.databaseUrl, application_name: 'bench-backlog' });
  await db.connect();
  ignoreClient(db);
  try {
    const created = platform.createdPlatform ?? (await platform.identity.platforms.create('bench'));
    const auth = `Basic ${Buffer.from(`${created.sandbox.clientId}:${created.sandbox.clientSecret}`).toString('base64')}`;
    const headers = { authorization: auth, 'content-type': 'application/json' };
    const money: MoneySetup = await moneySetup(platform.url, headers, REFERENCE_ACCOUNTS);
    const ref = reference.url;
    const transfers = (payers: MoneySetup['payers']) => payers.map((p) => JSON.stringify({ source: { accountId: p.usd }, destination: { accountId: p.external }, amount: 100 }));
    const refTransfers = (accounts: number) => Array.from({ length: accounts }, (_, i) => JSON.stringify({ accountId: referenceAccountId(i), amount: 100 }));

    const rows: Row[] = [];
    takeSqlProfile(1); // the set-up's statements are not a row's
    if (process.env.BENCH_ONLY === 'transfer-out') {
      // A quick look at the money path alone (with BENCH_SQL_PROFILE=1: where its statements go).
      rows.push(await measure(`reference R2: transfer-out in 1 transaction, over ${REFERENCE_ACCOUNTS} accounts`, { url: `${ref}/transfer-out`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: refTransfers(REFERENCE_ACCOUNTS) }));
      const scenario = `POST /transfer-out over ${money.payers.length} accounts`;
      const spec = { url: `${platform.url}/transfer-out`, method: 'POST', headers, bodies: transfers(money.payers) } as const;
      rows.push(await measureWrite(db, scenario, spec, 'R2'));
      // With BENCH_SUSTAINED_S: the sustained row too, the quick way to see whether memory stays flat.
      const sustained = SUSTAINED_S > 0 ? await sustainedRun(db, SUSTAINED_S, () => load(spec, SUSTAINED_S)) : undefined;
      const sections = [loadTable(rows, DURATION_S, CONNECTIONS), backlogTable(rows), sqlTable(rows), ...(sustained ? [sustainedTable(sustained, scenario, SUSTAINED_S)] : [])];
      process.stdout.write(`\n${sections.join('\n\n')}\n`);
      return;
    }
    rows.push(await measure('reference: bare node:http, fixed JSON', { url: `${ref}/fixed` }));
    rows.push(await measure('reference R1: node:http + pg, GET by id (1 indexed SELECT)', { url: `${ref}/customers/c1` }));
    rows.push(await measure('GET /customers/{id}', { url: `${platform.url}/customers/${encodeURIComponent(money.payers[0].customerId)}`, headers }, 'R1'));
    rows.push(await measure('GET /config', { url: `${platform.url}/config`, headers }, 'R1'));
    if (process.env.BENCH_ONLY === 'reads') {
      // The read path alone (the HTTP layer's share of it: run under `node --cpu-prof` to see where time goes).
      rows.push(await measure('GET /transactions?limit=20', { url: `${platform.url}/transactions?limit=20`, headers }, 'R1'));
      process.stdout.write(`\n${loadTable(rows, DURATION_S, CONNECTIONS)}\n`);
      return;
    }
    rows.push(await measure('GET /quotes/{id}', { url: `${platform.url}/quotes/${money.quoteId}`, headers }, 'R1'));
    rows.push(await measure('GET /transactions?limit=20', { url: `${platform.url}/transactions?limit=20`, headers }, 'R1'));
    rows.push(await measure('reference: one-row INSERT + commit', { url: `${ref}/insert`, method: 'POST', headers: { 'content-type': 'application/json' } }));
    rows.push(await measure(`reference R2: transfer-out in 1 transaction, over ${REFERENCE_ACCOUNTS} accounts`, { url: `${ref}/transfer-out`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: refTransfers(REFERENCE_ACCOUNTS) }));
    const transfersOut = { url: `${platform.url}/transfer-out`, method: 'POST', headers, bodies: transfers(money.payers) } as const;
    rows.push(await measureWrite(db, `POST /transfer-out over ${money.payers.length} accounts`, transfersOut, 'R2'));
    rows.push(await measure('reference R3: transfer-out in 1 transaction, ONE account', { url: `${ref}/transfer-out`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: refTransfers(1) }));
    rows.push(await measureWrite(db, 'POST /transfer-out, ONE account', { url: `${platform.url}/transfer-out`, method: 'POST', headers, bodies: transfers(money.payers.slice(0, 1)) }, 'R3'));
    reference.child.kill('SIGTERM'); // done with it: its connections go back for the appenders
    const appends = await appendRows(platform.databaseUrl);
    const sustainedScenario = `POST /transfer-out over ${money.payers.length} accounts`;
    const sustained = SUSTAINED_S > 0 ? await sustainedRun(db, SUSTAINED_S, () => load(transfersOut, SUSTAINED_S)) : undefined;
    if (sustained) rows.push({ scenario: `sustained ${SUSTAINED_S} s: ${sustainedScenario}`, reference: 'R2', ...sustained.load });
    const sections = [
      loadTable(rows, DURATION_S, CONNECTIONS),
      backlogTable(rows),
      sqlTable(rows),
      appendTable(appends.results, appends.emmettVersion, APPENDERS, DURATION_S),
      ...(sustained ? [sustainedTable(sustained, sustainedScenario, SUSTAINED_S)] : []),
    ];
    process.stdout.write(`\n${sections.join('\n\n')}\n`);
  } finally {
    await db.end();
    reference.child.kill('SIGTERM');
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
