import { http } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * /healthz, /readyz and /metrics of the whole platform as `npm start` composes it: the gateway serves them on its
 * HTTP port without credentials, the identity service on its own ops port. Then identity goes away.
 */
describe('operations endpoints (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let gatewayRoot: string;
  let identityOps: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    gatewayRoot = new URL(t.url).origin;
    identityOps = `http://127.0.0.1:${t.platform.identityServer.ops!.port}`;
  });
  afterAll(() => t?.stop());

  it('gateway: healthy and ready without credentials, at the server root', async () => {
    expect(await http('GET', `${gatewayRoot}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await http('GET', `${gatewayRoot}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', bus: 'ok', identity: 'ok', accounts: 'ok', quoting: 'ok', payments: 'ok', webhooks: 'ok', walletAuth: 'ok', cards: 'ok', agents: 'ok' } });
    // Only at the root: under the API version it is an unknown API route.
    expect((await http('GET', `${t.url}/healthz`)).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('gateway: counts requests by route template and times RPC calls', async () => {
    expect((await t.call('GET', '/config')).status).toBe(200);
    expect((await t.call('GET', '/no-such-route/123')).status).toBe(404);

    const scrape = await http<string>('GET', `${gatewayRoot}/metrics`);
    expect(scrape.status).toBe(200);
    const config = { method: 'GET', route: '/2025-10-13/config', status: '200', app: 'gateway' };
    expect(valueOf(scrape.body, 'http_requests_total', config)).toBe(1);
    expect(valueOf(scrape.body, 'http_request_duration_seconds_count', config)).toBe(1);
    expect(valueOf(scrape.body, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(scrape.body).not.toContain('no-such-route');
    expect(valueOf(scrape.body, 'rpc_client_duration_seconds_count', { service: 'identity', pattern: 'identity.config.get', outcome: 'ok' })).toBe(1);
    expect(valueOf(scrape.body, 'process_cpu_user_seconds_total', { app: 'gateway' })).toBeGreaterThan(0);
  });

  it('identity: ready on its ops port, with its own registry and event metrics', async () => {
    const ready = await http('GET', `${identityOps}/readyz`);
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', bus: 'ok' } } });
    expect(await http('GET', `${identityOps}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });

    const scrape = await http<string>('GET', `${identityOps}/metrics`);
    expect(valueOf(scrape.body, 'events_appended_total', { service: 'identity', type: 'PlatformCreated.v1', app: 'identity' })).toBe(1);
    expect(valueOf(scrape.body, 'outbox_relay_lag_events', { service: 'identity', app: 'identity' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(scrape.body, 'timers_due', { service: 'identity', app: 'identity' })).toBe(0);
    expect(scrape.body).not.toContain('app="gateway"');
    expect(scrape.body).not.toContain('http_requests_total');
  });

  it('gateway: not ready, naming identity, once the identity RPC server is gone', async () => {
    await t.platform.identityServer.app.close();
    const ready = await http('GET', `${gatewayRoot}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', bus: 'ok', accounts: 'ok', quoting: 'ok', payments: 'ok', webhooks: 'ok', walletAuth: 'ok', cards: 'ok', agents: 'ok', identity: expect.stringMatching(/^error: the identity service /) },
    });
    expect((await http('GET', `${gatewayRoot}/healthz`)).status).toBe(200); // alive, just not ready
  });
});

/** The value of the one series of `name` carrying all of `labels` (label order in the exposition is not fixed). */
function valueOf(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const matches = exposition
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && wanted.every((pair) => line.slice(name.length + 1, line.indexOf('}')).split(',').includes(pair)));
  if (matches.length !== 1) return undefined;
  return Number(matches[0].slice(matches[0].lastIndexOf(' ') + 1));
}
