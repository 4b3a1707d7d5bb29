import 'reflect-metadata';
import autocannon from 'autocannon';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '@payments/platform';
import { createLogger, loadConfig } from '@payments/runtime';

/**
 * `npm run bench`: throughput and latency of the hot paths, each next to a baseline measured in the same run (a bare
 * node:http server answering fixed JSON over the same loopback, with the same client). Absolute numbers on a
 * shared 2-core machine are noisy; the ratios are what to compare between commits.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(scenario: string, options: autocannon.Options): Promise<Row> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { scenario, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors };
}

function baselineServer(): Promise<{ url: string; server: Server }> {
  const body = JSON.stringify({ id: 'PlatformConfig:baseline', supportedCurrencies: [] });
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  chmodSync(dataDir, 0o755); // as root, embedded PostgreSQL runs as the postgres user, which must enter it
  const config = loadConfig({ ...process.env, PORT: '0', IDENTITY_RPC_PORT: process.env.IDENTITY_RPC_PORT ?? '4191', IDENTITY_OPS_PORT: '0', ACCOUNTS_RPC_PORT: process.env.ACCOUNTS_RPC_PORT ?? '4192', ACCOUNTS_OPS_PORT: '0', QUOTING_RPC_PORT: process.env.QUOTING_RPC_PORT ?? '4193', QUOTING_OPS_PORT: '0', PAYMENTS_RPC_PORT: process.env.PAYMENTS_RPC_PORT ?? '4194', PAYMENTS_OPS_PORT: '0', WEBHOOK_DISPATCHER_RPC_PORT: process.env.WEBHOOK_DISPATCHER_RPC_PORT ?? '4195', WEBHOOK_DISPATCHER_OPS_PORT: '0', SANDBOX_TIME_SCALE: '0.01', DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
  const platform = await startPlatform({ config, logger: createLogger('bench', 'silent') });
  const baseline = await baselineServer();
  try {
    const created = platform.createdPlatform ?? (await platform.identity.platforms.create('bench'));
    const auth = `Basic ${Buffer.from(`${created.sandbox.clientId}:${created.sandbox.clientSecret}`).toString('base64')}`;
    const headers = { authorization: auth, 'content-type': 'application/json' };
    let n = 0;
    const rows: Row[] = [];
    rows.push(await measure('baseline: bare node:http, fixed JSON', { url: baseline.url }));
    rows.push(await measure('gateway: 401 before any RPC', { url: `${platform.url}/config`, headers: { authorization: 'Basic bm8tY29sb24=' } }));
    rows.push(await measure('GET /config (cached auth, RPC, read model)', { url: `${platform.url}/config`, headers }));
    rows.push(
      await measure('POST /tokens (new stream: decide, append, project)', {
        url: `${platform.url}/tokens`,
        method: 'POST',
        headers,
        setupClient: (client) => client.setBody(JSON.stringify({ name: `bench-${n++}`, permissions: ['VIEW'] })),
      }),
    );
    rows.push(
      await measure('PATCH /config (one stream, growing: read, decide, append)', {
        url: `${platform.url}/config`,
        method: 'PATCH',
        headers,
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ umaDomain: `bench-${n++}.example.com` }) }) }],
      }),
    );
    const money = await moneySetup(platform.url, headers);
    const quoteBody = JSON.stringify({ source: { sourceType: 'ACCOUNT', accountId: money.usd }, destination: { destinationType: 'ACCOUNT', accountId: money.eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
    rows.push(await measure('POST /quotes (2 account RPCs, price, new stream, expiry timer)', { url: `${platform.url}/quotes`, method: 'POST', headers, body: quoteBody }));
    const quote = await json(platform.url, 'POST', '/quotes', headers, JSON.parse(quoteBody));
    rows.push(await measure('GET /quotes/{id} (read model)', { url: `${platform.url}/quotes/${quote.id}`, headers }));
    const transferBody = JSON.stringify({ source: { accountId: money.usd }, destination: { accountId: money.external }, amount: 100 });
    rows.push(await measure('POST /transfer-out (3 RPCs, hold on ONE account, saga)', { url: `${platform.url}/transfer-out`, method: 'POST', headers, body: transferBody }));
    print(rows);
  } finally {
    baseline.server.close();
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function json(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json()) as Record<string, any>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** A customer with funded USD and EUR accounts and an ACTIVE USD external account (sandbox suffix 789: success). */
async function moneySetup(url: string, headers: Record<string, string>): Promise<{ usd: string; eur: string; external: string }> {
  const currency = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
  await json(url, 'PATCH', '/config', headers, { supportedCurrencies: [currency('USD'), currency('EUR')] });
  const customer = await json(url, 'POST', '/customers', headers, { customerType: 'INDIVIDUAL', fullName: 'Bench Payer', region: 'US' });
  const account = async (code: string): Promise<string> => {
    for (;;) {
      const page = await json(url, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=${code}`, headers);
      if (page.data[0]) return page.data[0].id;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const usd = await account('USD');
  const eur = await account('EUR');
  await json(url, 'POST', `/sandbox/internal-accounts/${usd}/fund`, headers, { amount: 100_000_000_000 });
  const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } };
  const external = await json(url, 'POST', '/customers/external-accounts', headers, { customerId: customer.id, currency: 'USD', accountInfo: { accountType: 'USD_ACCOUNT', accountNumber: '4400123789', routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary } });
  while ((await json(url, 'GET', `/customers/external-accounts/${external.id}`, headers)).status !== 'ACTIVE') await new Promise((r) => setTimeout(r, 50));
  return { usd, eur, external: external.id };
}

function print(rows: Row[]): void {
  const base = rows[0].rps;
  const lines = rows.map((r) =>
    `| ${r.scenario} | ${r.rps} | ${(r.rps / base).toFixed(3)} | ${r.p50} | ${r.p99} | ${r.errors} |`,
  );
  process.stdout.write(
    [`\n${DURATION_S} s per scenario, ${CONNECTIONS} connections, client in the same process`, '', '| scenario | req/s | × baseline | p50 ms | p99 ms | non-2xx/errors |', '| --- | --- | --- | --- | --- | --- |', ...lines, ''].join('\n') + '\n',
  );
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
