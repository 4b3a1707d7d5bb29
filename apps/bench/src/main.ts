import 'reflect-metadata';
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
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
  const config = loadConfig({ ...process.env, PORT: '0', IDENTITY_RPC_PORT: process.env.IDENTITY_RPC_PORT ?? '4191', IDENTITY_OPS_PORT: '0', ACCOUNTS_RPC_PORT: process.env.ACCOUNTS_RPC_PORT ?? '4192', ACCOUNTS_OPS_PORT: '0', QUOTING_RPC_PORT: process.env.QUOTING_RPC_PORT ?? '4193', QUOTING_OPS_PORT: '0', DATA_DIR: dataDir, RATE_LIMIT_PER_SECOND: '0', LOG_LEVEL: 'silent' });
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
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ webhookEndpoint: `https://hooks.example/${n++}` }) }) }],
      }),
    );
    print(rows);
  } finally {
    baseline.server.close();
    await platform.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
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
