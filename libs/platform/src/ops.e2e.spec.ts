import { http, sampleOf } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * /healthz, /readyz and /metrics of the whole platform as `npm start` composes it: one ops port (GATEWAY_OPS_PORT)
 * serves every app's checks and metrics without credentials; the API port keeps only /healthz. Then identity goes
 * away.
 */
describe('operations endpoints (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let gatewayRoot: string;
  let ops: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    gatewayRoot = new URL(t.url).origin;
    ops = `http://127.0.0.1:${t.platform.ops.port}`;
  });
  afterAll(() => t?.stop());

  it('healthy and ready without credentials on the ops port; the API port keeps /healthz only, at the server root', async () => {
    expect(await http('GET', `${ops}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await http('GET', `${ops}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      checks: expect.objectContaining({ database: 'ok', bus: 'ok', identity: 'ok', accounts: 'ok', quoting: 'ok', payments: 'ok', webhooks: 'ok', walletAuth: 'ok', cards: 'ok', agents: 'ok', 'identity.database': 'ok', 'webhook-dispatcher.bus': 'ok' }),
    });
    expect(await http('GET', `${gatewayRoot}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    // Readiness fans out to every service and metrics describe all traffic: not on the public port.
    for (const path of ['/readyz', '/metrics']) expect((await http('GET', `${gatewayRoot}${path}`)).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // Only at the root: under the API version it is an unknown API route.
    expect((await http('GET', `${t.url}/healthz`)).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('gateway: counts requests by operation, route template and status class, and times RPC calls', async () => {
    expect((await t.call('GET', '/config')).status).toBe(200);
    expect((await t.call('GET', '/customers/Customer:019a0000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await t.call('GET', '/no-such-route/123')).status).toBe(404);

    const scrape = await http<string>('GET', `${ops}/metrics`);
    expect(scrape.status).toBe(200);
    const config = { method: 'GET', route: '/2025-10-13/config', operation: 'getPlatformConfig', status_class: '2xx', app: 'gateway' };
    // The API's own /healthz and the scrapes are not API traffic of any operation.
    expect(sampleOf(scrape.body, 'payments_http_requests_total', { ...config, status: '200' })).toBe(1);
    expect(sampleOf(scrape.body, 'payments_http_request_duration_seconds_count', config)).toBe(1);
    // A refusal is counted under the operation that refused it, as a 4xx.
    expect(sampleOf(scrape.body, 'payments_http_requests_total', { route: '/2025-10-13/customers/:customerId', operation: 'getCustomerById', status: '404', status_class: '4xx' })).toBe(1);
    expect(sampleOf(scrape.body, 'payments_http_requests_total', { route: 'unmatched', operation: 'none', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(scrape.body).not.toContain('no-such-route');
    expect(sampleOf(scrape.body, 'payments_rpc_client_duration_seconds_count', { app: 'gateway', service: 'identity', pattern: 'identity.config.get', outcome: 'ok' })).toBe(1);
    expect(sampleOf(scrape.body, 'payments_db_pool_max_connections', { pool: 'gateway' })).toBe(5);
    expect(sampleOf(scrape.body, 'process_cpu_user_seconds_total', { app: 'gateway' })).toBeGreaterThan(0);
  });

  it('identity: its own series on the same port, labelled app="identity": events, relay, timers, RPC handlers, pool', async () => {
    const scrape = await http<string>('GET', `${ops}/metrics`);
    const identity = { service: 'identity', app: 'identity' };
    expect(sampleOf(scrape.body, 'payments_events_appended_total', { ...identity, type: 'PlatformCreated.v1' })).toBe(1);
    expect(sampleOf(scrape.body, 'payments_outbox_relay_lag_events', identity)).toBeGreaterThanOrEqual(0);
    expect(sampleOf(scrape.body, 'payments_timers_due', identity)).toBe(0);
    expect(sampleOf(scrape.body, 'payments_rpc_server_duration_seconds_count', { ...identity, pattern: 'identity.config.get', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(sampleOf(scrape.body, 'payments_db_pool_connections', { pool: 'identity' })).toBeGreaterThan(0);
    expect(scrape.body).not.toMatch(/^payments_http_requests_total\{[^}]*app="identity"/m);
    // One HELP and TYPE per family, every app's series under it.
    expect(scrape.body.match(/^# TYPE payments_rpc_server_duration_seconds /gm)).toHaveLength(1);
  });

  it('gateway: not ready, naming identity, once the identity RPC server is gone', async () => {
    await t.platform.identityServer.app.close();
    const ready = await http('GET', `${ops}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: expect.objectContaining({ database: 'ok', bus: 'ok', accounts: 'ok', quoting: 'ok', payments: 'ok', webhooks: 'ok', walletAuth: 'ok', cards: 'ok', agents: 'ok', identity: expect.stringMatching(/^error: the identity service /) }),
    });
    expect((await http('GET', `${ops}/healthz`)).status).toBe(200); // alive, just not ready
    expect((await http('GET', `${gatewayRoot}/healthz`)).status).toBe(200);
  });
});
