import 'reflect-metadata';
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startPlatform } from '@payments/platform';
import { createLogger, loadConfig } from '@payments/runtime';
import type { LoadResult, LoadSpec } from './load';
import { REFERENCE_ACCOUNTS, referenceAccountId } from './reference-data';
import { moneySetup, MoneySetup } from './money-setup';

/**
 * `npm run bench`: the platform's hot paths next to reference rows measured in the same run on the same PostgreSQL —
 * a minimal node:http + pg service doing the same logical work (apps/bench/src/reference.ts) — with the load generator
 * in its own process (load.ts). Absolute numbers on a shared 2-core machine are noisy; the ratios are what to compare
 * between commits.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const run = promisify(execFile);

interface Row extends LoadResult {
  scenario: string;
  /** The row this one is divided by. */
  reference?: string;
}

async function measure(scenario: string, spec: Omit<LoadSpec, 'durationS' | 'connections'>, reference?: string): Promise<Row> {
  const { stdout } = await run(process.execPath, [join(__dirname, 'load.js'), JSON.stringify({ ...spec, durationS: DURATION_S, connections: CONNECTIONS })], { maxBuffer: 1 << 20 });
  return { scenario, reference, ...(JSON.parse(stdout) as LoadResult) };
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

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  chmodSync(dataDir, 0o755); // as root, embedded PostgreSQL runs as the postgres user, which must enter it
  const config = loadConfig({ ...process.env, PORT: '0', IDENTITY_RPC_PORT: process.env.IDENTITY_RPC_PORT ?? '4191', IDENTITY_OPS_PORT: '0', ACCOUNTS_RPC_PORT: process.env.ACCOUNTS_RPC_PORT ?? '4192', ACCOUNTS_OPS_PORT: '0', QUOTING_RPC_PORT: process.env.QUOTING_RPC_PORT ?? '4193', QUOTING_OPS_PORT: '0', PAYMENTS_RPC_PORT: process.env.PAYMENTS_RPC_PORT ?? '4194', PAYMENTS_OPS_PORT: '0', WEBHOOK_DISPATCHER_RPC_PORT: process.env.WEBHOOK_DISPATCHER_RPC_PORT ?? '4195', WEBHOOK_DISPATCHER_OPS_PORT: '0', SANDBOX_TIME_SCALE: '0.01', DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  const platform = await startPlatform({ config, logger: createLogger('bench', 'silent') });
  const reference = await startReference(platform.databaseUrl);
  try {
    const created = platform.createdPlatform ?? (await platform.identity.platforms.create('bench'));
    const auth = `Basic ${Buffer.from(`${created.sandbox.clientId}:${created.sandbox.clientSecret}`).toString('base64')}`;
    const headers = { authorization: auth, 'content-type': 'application/json' };
    const money: MoneySetup = await moneySetup(platform.url, headers, REFERENCE_ACCOUNTS);
    const ref = reference.url;
    const transfers = (payers: MoneySetup['payers']) => payers.map((p) => JSON.stringify({ source: { accountId: p.usd }, destination: { accountId: p.external }, amount: 100 }));
    const refTransfers = (accounts: number) => Array.from({ length: accounts }, (_, i) => JSON.stringify({ accountId: referenceAccountId(i), amount: 100 }));

    const rows: Row[] = [];
    rows.push(await measure('reference: bare node:http, fixed JSON', { url: `${ref}/fixed` }));
    rows.push(await measure('reference R1: node:http + pg, GET by id (1 indexed SELECT)', { url: `${ref}/customers/c1` }));
    rows.push(await measure('GET /customers/{id}', { url: `${platform.url}/customers/${encodeURIComponent(money.payers[0].customerId)}`, headers }, 'R1'));
    rows.push(await measure('GET /config', { url: `${platform.url}/config`, headers }, 'R1'));
    rows.push(await measure('GET /quotes/{id}', { url: `${platform.url}/quotes/${money.quoteId}`, headers }, 'R1'));
    rows.push(await measure('GET /transactions?limit=20', { url: `${platform.url}/transactions?limit=20`, headers }, 'R1'));
    rows.push(await measure('reference: one-row INSERT + commit', { url: `${ref}/insert`, method: 'POST', headers: { 'content-type': 'application/json' } }));
    rows.push(await measure(`reference R2: transfer-out in 1 transaction, over ${REFERENCE_ACCOUNTS} accounts`, { url: `${ref}/transfer-out`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: refTransfers(REFERENCE_ACCOUNTS) }));
    rows.push(await measure(`POST /transfer-out over ${money.payers.length} accounts`, { url: `${platform.url}/transfer-out`, method: 'POST', headers, bodies: transfers(money.payers) }, 'R2'));
    rows.push(await measure('reference R3: transfer-out in 1 transaction, ONE account', { url: `${ref}/transfer-out`, method: 'POST', headers: { 'content-type': 'application/json' }, bodies: refTransfers(1) }));
    rows.push(await measure('POST /transfer-out, ONE account', { url: `${platform.url}/transfer-out`, method: 'POST', headers, bodies: transfers(money.payers.slice(0, 1)) }, 'R3'));
    print(rows);
  } finally {
    reference.child.kill('SIGTERM');
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(rows: Row[]): void {
  const byRef: Record<string, number> = {};
  for (const r of rows) {
    const tag = /\b(R\d)\b/.exec(r.scenario)?.[1];
    if (tag && r.scenario.startsWith('reference')) byRef[tag] = r.rps;
  }
  const lines = rows.map((r) => {
    const ratio = r.reference && byRef[r.reference] ? `${(r.rps / byRef[r.reference]).toFixed(2)}× ${r.reference}` : '';
    return `| ${r.scenario} | ${r.rps} | ${ratio} | ${r.p50} | ${r.p99} | ${r.errors} |`;
  });
  process.stdout.write(
    [
      `\n${DURATION_S} s per row, ${CONNECTIONS} connections, load generator in its own process, references on the same PostgreSQL`,
      '',
      '| row | req/s | ratio | p50 ms | p99 ms | non-2xx/errors |',
      '| --- | --- | --- | --- | --- | --- |',
      ...lines,
      '',
    ].join('\n') + '\n',
  );
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
