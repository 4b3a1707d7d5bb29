import { API_VERSION } from '@payments/gateway';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { servedRoutes } from './test-routes';

/**
 * Two platforms; every route that addresses one resource is tried with the other platform's credentials and must
 * answer 404, exactly as for a resource that does not exist. ADD A ROW for every new route with a path parameter:
 * the coverage test below fails until you do.
 */
interface TenancyRow {
  route: string; // `METHOD /path/:param` as the router serves it, without the version prefix
  /** Creates the owner's resource and returns the concrete path to request. */
  setup: (t: TestPlatform, owner: TestTenant) => Promise<string>;
  body?: unknown;
}

const rows: TenancyRow[] = [
  {
    route: 'GET /tokens/:tokenId',
    setup: async (t, owner) => `/tokens/${(await t.call('POST', '/tokens', { auth: owner.sandbox, body: { name: 'mine', permissions: ['VIEW'] } })).body.id}`,
  },
  {
    route: 'DELETE /tokens/:tokenId',
    setup: async (t, owner) => `/tokens/${(await t.call('POST', '/tokens', { auth: owner.sandbox, body: { name: 'mine', permissions: ['VIEW'] } })).body.id}`,
  },
];

describe('tenancy: another platform or mode sees 404', () => {
  let t: TestPlatform;
  let owner: TestTenant;
  let stranger: TestTenant;
  beforeAll(async () => {
    t = await startTestPlatform();
    owner = t.tenant;
    stranger = await t.createTenant('stranger');
  });
  afterAll(() => t.stop());

  it('has a row for every served route that takes a path parameter', () => {
    const parameterised = servedRoutes(t.platform.gateway.app)
      .filter((r) => r.path.includes(':'))
      .map((r) => `${r.method} ${r.path.replace(`/${API_VERSION}`, '')}`);
    expect(parameterised.filter((r) => !rows.some((row) => row.route === r))).toEqual([]);
  });

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    const path = await row.setup(t, owner);
    const method = row.route.split(' ')[0];
    for (const auth of [stranger.sandbox, stranger.production, owner.production]) {
      const res = await t.call(method, path, { auth, body: row.body });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, code: expect.stringMatching(/NOT_FOUND$/) });
    }
    const own = await t.call(method, path, { auth: owner.sandbox, body: row.body });
    expect(own.status).toBeLessThan(300); // the resource was there all along
  });

  it('keeps collections and the configuration per platform and mode', async () => {
    await t.call('PATCH', '/config', { auth: owner.sandbox, body: { umaDomain: 'owner.example.com' } });
    const theirs = await t.call('GET', '/config', { auth: stranger.sandbox });
    const mine = await t.call('GET', '/config', { auth: owner.sandbox });
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(theirs.body.umaDomain).toBeUndefined();
    expect((await t.call('GET', '/config', { auth: owner.production })).body.umaDomain).toBeUndefined();
    const ownerTokens = (await t.call('GET', '/tokens?limit=100', { auth: owner.sandbox })).body.data.map((x: { id: string }) => x.id);
    const strangerTokens = (await t.call('GET', '/tokens?limit=100', { auth: stranger.sandbox })).body.data.map((x: { id: string }) => x.id);
    expect(strangerTokens.filter((id: string) => ownerTokens.includes(id))).toEqual([]);
  });
});
