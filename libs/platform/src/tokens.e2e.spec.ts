import { basicAuth, eventually } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

describe('API tokens through the gateway', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  it('creates a token whose secret is shown once and stored only as a keyed hash', async () => {
    const created = await t.call('POST', '/tokens', { body: { name: 'reporting', permissions: ['VIEW'] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^Token:/), name: 'reporting', permissions: ['VIEW'], mode: 'SANDBOX' });
    expect(created.body.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const fetched = await t.call('GET', `/tokens/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual({ ...created.body, clientSecret: undefined, updatedAt: expect.any(String) });
    expect('clientSecret' in fetched.body).toBe(false);

    const db = t.platform.identity.host.dataSource;
    const [row] = await db.query(`SELECT secret_hash FROM identity.api_tokens WHERE token_id = $1`, [created.body.id]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const leaks = await db.query(`SELECT count(*)::int AS n FROM identity.events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${created.body.clientSecret}%`]);
    expect(leaks[0].n).toBe(0);
  });

  it('enforces permissions: VIEW reads, MANAGE writes config and tokens; a missing one is 403 FORBIDDEN', async () => {
    const viewer = (await t.call('POST', '/tokens', { body: { name: 'viewer', permissions: ['VIEW'] } })).body;
    const transactor = (await t.call('POST', '/tokens', { body: { name: 'payer', permissions: ['TRANSACT'] } })).body;
    const asViewer = basicAuth(viewer.clientId, viewer.clientSecret);
    const asTransactor = basicAuth(transactor.clientId, transactor.clientSecret);

    expect((await t.call('GET', '/config', { auth: asViewer })).status).toBe(200);
    const patch = await t.call('PATCH', '/config', { auth: asViewer, body: { umaDomain: 'pay.example.com' } });
    expect(patch.body).toEqual({ status: 403, code: 'FORBIDDEN', message: expect.stringContaining('MANAGE') });
    expect((await t.call('POST', '/tokens', { auth: asViewer, body: { name: 'x', permissions: ['MANAGE'] } })).status).toBe(403);
    expect((await t.call('GET', '/tokens', { auth: asViewer })).status).toBe(403);
    expect((await t.call('GET', '/config', { auth: asTransactor })).body.code).toBe('FORBIDDEN');
  });

  it('stops a deleted token at once, even one the gateway had cached', async () => {
    const token = (await t.call('POST', '/tokens', { body: { name: 'short-lived', permissions: ['VIEW', 'MANAGE'] } })).body;
    const auth = basicAuth(token.clientId, token.clientSecret);
    expect((await t.call('GET', '/config', { auth })).status).toBe(200); // now cached

    expect((await t.call('DELETE', `/tokens/${token.id}`)).status).toBe(204);
    expect((await t.call('GET', '/config', { auth })).status).toBe(401);
    expect((await t.call('GET', `/tokens/${token.id}`)).body.code).toBe('TOKEN_NOT_FOUND');
    expect((await t.call('DELETE', `/tokens/${token.id}`)).status).toBe(404);
  });

  it('evicts a token deleted elsewhere when TokenDeleted.v1 arrives on the bus', async () => {
    const token = (await t.call('POST', '/tokens', { body: { name: 'other-gateway', permissions: ['VIEW'] } })).body;
    const auth = basicAuth(token.clientId, token.clientSecret);
    expect((await t.call('GET', '/config', { auth })).status).toBe(200);
    // Deleted through the service, not this gateway: only the bus can tell the gateway.
    const [owner] = await t.platform.identity.host.dataSource.query(`SELECT platform_id FROM identity.api_tokens WHERE token_id = $1`, [token.id]);
    const caller = { platformId: owner.platform_id, mode: 'SANDBOX' as const, clientId: 'operator', permissions: ['MANAGE' as const] };
    await t.platform.identity.tokens.delete(caller, token.id, new Date().toISOString());
    await eventually(async () => (await t.call('GET', '/config', { auth })).status === 401, { timeoutMs: 15_000, what: 'cache eviction' });
  });

  it('validates creation: unknown or repeated permissions, empty names and unknown fields are 400 naming the field', async () => {
    const bad = await t.call('POST', '/tokens', { body: { name: '', permissions: ['VIEW', 'VIEW', 'ROOT'], admin: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(['admin', 'name', 'permissions']);
    const none = await t.call('POST', '/tokens', { body: { name: 'x', permissions: [] } });
    expect(none.body.details.errors[0].field).toBe('permissions');
  });

  it('keeps modes and tenants apart: other-mode and other-platform tokens are 404 and never listed', async () => {
    const sandboxToken = (await t.call('POST', '/tokens', { body: { name: 'mode-check', permissions: ['VIEW'] } })).body;
    const asProduction = await t.call('GET', `/tokens/${sandboxToken.id}`, { auth: t.tenant.production });
    expect(asProduction.body).toMatchObject({ status: 404, code: 'TOKEN_NOT_FOUND' });
    const prodList = await t.call('GET', '/tokens?limit=100', { auth: t.tenant.production });
    expect(prodList.body.data.every((tok: { mode: string }) => tok.mode === 'PRODUCTION')).toBe(true);

    const other = await t.createTenant();
    expect((await t.call('GET', `/tokens/${sandboxToken.id}`, { auth: other.sandbox })).status).toBe(404);
    expect((await t.call('DELETE', `/tokens/${sandboxToken.id}`, { auth: other.sandbox })).status).toBe(404);
    expect((await t.call('GET', `/tokens/${sandboxToken.id}`)).status).toBe(200); // still there for its owner
    const otherList = await t.call('GET', '/tokens?limit=100', { auth: other.sandbox });
    expect(otherList.body.data.map((tok: { id: string }) => tok.id)).not.toContain(sandboxToken.id);
    expect(otherList.body.totalCount).toBe(1);
  });

  it('filters the list by name', async () => {
    await t.call('POST', '/tokens', { body: { name: 'needle', permissions: ['VIEW'] } });
    const found = await t.call('GET', '/tokens?name=needle');
    expect(found.body.data.map((tok: { name: string }) => tok.name)).toEqual(['needle']);
    expect(found.body).toMatchObject({ hasMore: false, totalCount: 1 });
    expect('nextCursor' in found.body).toBe(false);
    expect((await t.call('GET', '/tokens?createdAfter=yesterday')).status).toBe(400);
  });
});
