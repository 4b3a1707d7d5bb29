import { Pool } from 'pg';
import { Counter } from 'prom-client';
import { createEventBus, EventBus } from '@payments/messaging';
import { createTestDatabase, freePort, http, TestDatabase } from '@payments/testing';
import { createAppRegistry } from './app-registry';
import { busCheck, databaseCheck } from './dependency-checks';
import { OpsServer, startOpsServer } from './ops-server';

/** The ops server over real HTTP, its checks against a real PostgreSQL and the PostgreSQL-log bus. */
describe('ops server (real HTTP, real PostgreSQL)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let bus: EventBus;
  const servers: OpsServer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 4 });
    bus = createEventBus({ databaseUrl: database.url, clientId: 'ops-test' });
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await bus.close();
    await pool.end();
    await database.drop();
  });

  async function start(app: string, checks: Parameters<typeof startOpsServer>[0]['checks'], extra: { checkTimeoutMs?: number } = {}) {
    const server = await startOpsServer({ app, host: '127.0.0.1', port: 0, checks, ...extra });
    servers.push(server);
    return { server, url: `http://127.0.0.1:${server.port}` };
  }

  it('listens on the port the OS picked, is healthy, and ready when the database and the bus answer', async () => {
    const { server, url } = await start('ops-ready', { database: databaseCheck(pool), bus: busCheck(bus) });
    expect(server.port).toBeGreaterThan(0);

    const health = await http('GET', `${url}/healthz`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await http('GET', `${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', bus: 'ok' } });
    expect(ready.headers.get('cache-control')).toBe('no-store');

    expect((await http('GET', `${url}/nope`)).status).toBe(404);
    expect((await http('POST', `${url}/readyz`)).status).toBe(405);
  });

  it('answers 503 naming the failing check, with a short reason and no stack or credentials', async () => {
    const closedPort = await freePort();
    const deadBus = createEventBus({ databaseUrl: `postgres://ops:s3cret-pw@127.0.0.1:${closedPort}/nowhere`, clientId: 'ops-test-dead' });
    try {
      const { url } = await start('ops-failing', { database: databaseCheck(pool), bus: busCheck(deadBus) });
      const response = await http('GET', `${url}/readyz`);
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'unavailable', checks: { database: 'ok', bus: expect.stringMatching(/^error: .*ECONNREFUSED/) } });
      const text = JSON.stringify(response.body);
      expect(text).not.toContain('s3cret-pw');
      expect(text).not.toMatch(/\n|\s+at /);
    } finally {
      await deadBus.close();
    }
  });

  it('times out a check that hangs and answers 503 within the timeout', async () => {
    const { url } = await start('ops-hanging', { database: databaseCheck(pool), slow: () => pool.query('SELECT pg_sleep(1)') }, { checkTimeoutMs: 150 });
    const started = Date.now();
    const response = await http('GET', `${url}/readyz`);
    expect(Date.now() - started).toBeLessThan(900);
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ status: 'unavailable', checks: { database: 'ok', slow: 'error: timed out after 150 ms' } });
  });

  it('serves Prometheus text per app: default process metrics with the app label, registries kept apart', async () => {
    const registryA = createAppRegistry('ops-a');
    new Counter({ name: 'ops_only_in_a_total', help: 'test counter', registers: [registryA] }).inc(3);
    const a = await startOpsServer({ app: 'ops-a', host: '127.0.0.1', port: 0, checks: {}, registry: registryA });
    servers.push(a);
    const b = await start('ops-b', {});

    const scrapeA = await http('GET', `http://127.0.0.1:${a.port}/metrics`);
    const scrapeB = await http('GET', `${b.url}/metrics`);
    expect(scrapeA.status).toBe(200);
    expect(scrapeA.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scrapeA.body).toMatch(/^process_cpu_user_seconds_total\{app="ops-a"\} /m);
    expect(scrapeA.body).toMatch(/^nodejs_eventloop_lag_seconds\{app="ops-a"\} /m);
    expect(scrapeA.body).toMatch(/^ops_only_in_a_total\{app="ops-a"\} 3$/m);

    expect(scrapeB.body).toMatch(/^process_cpu_user_seconds_total\{app="ops-b"\} /m);
    expect(scrapeB.body).not.toContain('ops_only_in_a_total');
    expect(scrapeB.body).not.toContain('app="ops-a"');
  });

  it('stops listening on stop, even with keep-alive connections open', async () => {
    const { server, url } = await start('ops-stop', {});
    expect((await http('GET', `${url}/healthz`)).status).toBe(200); // fetch keeps this connection alive
    await server.stop();
    await expect(http('GET', `${url}/healthz`)).rejects.toThrow();
  });
});
