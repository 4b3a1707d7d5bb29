import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kafkaBrokersForTests, OwnPostgres } from '@payments/testing';
import { ApiClient, API_BASE_PATH, basicAuth, CallResult } from './client';
import { ADMIN_MAIN, PlatformProcess, sleep } from './platform-process';
import { WebhookReceiver } from './receiver';
import { CustomerWorld, setUpCustomers, until } from './setup';

const OUTAGE_MS = 6_000;

/**
 * PostgreSQL restarted with an immediate shutdown while money operations are in flight (issue #42), on the bus of the
 * run (Kafka when KAFKA_BROKERS is set: the consumers then hold messages from the broker while the database is away,
 * where an acknowledged quote execution used to be parked after 5 attempts and never happen).
 * What a client sees: 503 with Retry-After during the outage, never 500; every operation acknowledged once the
 * database is back happens, and nothing is parked in a dead-letter queue.
 */
describe('a PostgreSQL restart under load', () => {
  let server: OwnPostgres;
  let platform: PlatformProcess;
  let receiver: WebhookReceiver;
  let dataDir: string;
  let client: ApiClient;
  let customers: CustomerWorld[];
  const sandbox = { clientId: `outage-${randomBytes(3).toString('hex')}`, clientSecret: randomBytes(24).toString('hex') };

  beforeAll(async () => {
    server = await OwnPostgres.start();
    const databaseUrl = await server.createDatabase('outage');
    dataDir = mkdtempSync(join(tmpdir(), 'pp-outage-'));
    receiver = await WebhookReceiver.start();
    platform = await PlatformProcess.create({
      databaseUrl,
      kafkaBrokers: kafkaBrokersForTests()?.join(','),
      busNamespace: `outage-${randomBytes(4).toString('hex')}.`,
      sandbox,
      production: { clientId: `${sandbox.clientId}-prod`, clientSecret: randomBytes(24).toString('hex') },
      secretHashKey: randomBytes(32).toString('hex'),
      dataDir,
      extraEnv: { DB_POOL_SIZE_MAX: '5' },
    });
    await platform.start();
    client = new ApiClient(platform.origin, basicAuth(sandbox.clientId, sandbox.clientSecret), { budgetMs: 90_000, attemptTimeoutMs: 20_000 });
    customers = await setUpCustomers(client, receiver);
  }, 180_000);

  afterAll(async () => {
    await platform?.stop().catch(() => undefined);
    await receiver?.close();
    server?.destroy();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down, and does everything it acknowledged once it is back', async () => {
    const [a, b] = customers;
    const ops: { kind: 'quote' | 'transferOut'; key: string; body: unknown; path: string }[] = [];
    for (let i = 0; i < 24; i++) {
      const from = i % 2 === 0 ? a : b;
      if (i % 3 === 0) ops.push({ kind: 'transferOut', key: `outage-out-${i}`, path: '/transfer-out', body: { source: { accountId: from.usd }, destination: { accountId: from.usdExternal['789'] }, amount: 10_000 + i } });
      else ops.push({ kind: 'quote', key: `outage-quote-${i}`, path: '/quotes', body: { source: { sourceType: 'ACCOUNT', accountId: from.usd }, destination: { destinationType: 'ACCOUNT', accountId: from.eur! }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 + i, immediatelyExecute: true } });
    }
    // A few operations at a time, as clients do; the database goes away shortly after the first are sent.
    const results: CallResult[] = new Array(ops.length);
    const ackedAt: number[] = new Array(ops.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < ops.length; i = next++) {
        results[i] = await client.call('POST', ops[i].path, ops[i].body, ops[i].key);
        ackedAt[i] = Date.now();
        await sleep(150);
      }
    };
    const load = Promise.all(Array.from({ length: 4 }, worker));
    await sleep(400);
    server.stopImmediately();
    // While it is down: a write and a read both say "retry later", with when.
    const probes: { status: number; retryAfter: string | null; code?: string }[] = [];
    for (const [method, path, body] of [['POST', '/transfer-out', ops[0].body], ['GET', `/customers/${encodeURIComponent(a.id)}`, undefined]] as const) {
      const response = await fetch(`${platform.origin}${API_BASE_PATH}${path}`, {
        method,
        headers: { authorization: basicAuth(sandbox.clientId, sandbox.clientSecret), 'content-type': 'application/json', 'idempotency-key': 'outage-probe' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      probes.push({ status: response.status, retryAfter: response.headers.get('retry-after'), code: ((await response.json()) as { code?: string }).code });
    }
    await sleep(OUTAGE_MS);
    await server.startServer();
    const back = Date.now();
    await load;

    expect(probes).toEqual([
      { status: 503, retryAfter: expect.stringMatching(/^[1-9][0-9]*$/), code: 'SERVICE_UNAVAILABLE' },
      { status: 503, retryAfter: expect.stringMatching(/^[1-9][0-9]*$/), code: 'SERVICE_UNAVAILABLE' },
    ]);
    const seen = results.flatMap((r) => r.attempts.map((t) => t.status ?? t.error));
    expect(seen.filter((s) => s === 500)).toEqual([]); // an outage is never "an unexpected error"
    expect(results.map((r) => r.outcome)).toEqual(ops.map(() => 'acked'));
    expect(seen.filter((s) => s === 503).length + probes.length).toBeGreaterThan(2); // the outage was met, not missed
    // Keys cut off by the outage free as soon as the database is back, not when their 30 s lease runs out: the last
    // operation is answered within seconds (409 IDEMPOTENCY_KEY_IN_USE meanwhile).
    expect(Math.max(...ackedAt) - back).toBeLessThan(12_000);

    // Each acknowledged operation happens: the quote's execution and the payout both complete.
    for (const [i, result] of results.entries()) {
      const body = result.answer!.body;
      if (ops[i].kind === 'quote') {
        await until(`quote ${body.id} (${ops[i].key}) COMPLETED`, async () => (await client.must('GET', `/quotes/${body.id}`)).status === 'COMPLETED', 60_000);
      } else {
        await until(`transfer ${body.id} (${ops[i].key}) COMPLETED`, async () => (await client.must('GET', `/transactions/${body.id}`)).status === 'COMPLETED', 60_000);
      }
    }
    // Nothing was parked: an outage is waited out, not dead-lettered.
    const letters = spawnSync(process.execPath, [ADMIN_MAIN, 'bus:dead-letters'], { env: { ...platform.env, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });
    expect(letters.status).toBe(0);
    expect(JSON.parse(letters.stdout)).toEqual([]);
  }, 300_000);
});
