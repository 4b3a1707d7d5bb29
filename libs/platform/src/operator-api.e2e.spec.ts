import { OPERATOR_OPERATIONS } from '@payments/contracts';
import { eventually, http } from '@payments/testing';
import { startTestPlatform, TestOperator, TestPlatform } from './test-platform';

/** The operator API's own boundary: who gets in, what they see, its document, and the audit log of what they did. */
describe('operator API (/operator/v1)', () => {
  let t: TestPlatform;
  let admin: TestOperator;
  let viewer: TestOperator;
  let origin: string;
  beforeAll(async () => {
    t = await startTestPlatform();
    origin = new URL(t.url).origin;
    admin = await t.createOperator('ADMIN', 'Ada Admin');
    viewer = await t.createOperator('VIEWER', 'Vic Viewer');
  });
  afterAll(() => t.stop());

  it('knows the operator behind the credentials and shows every platform of the deployment', async () => {
    const me = await t.operatorCall('GET', '/me', { auth: viewer.auth });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: viewer.id, name: 'Vic Viewer', role: 'VIEWER', createdAt: expect.any(String) });

    const other = await t.createTenant('Another platform');
    const first = await t.operatorCall('GET', '/platforms?limit=1', { auth: viewer.auth });
    expect(first.body).toMatchObject({ data: [{ id: expect.stringMatching(/^Platform:/) }], hasMore: true, totalCount: 2 });
    const second = await t.operatorCall('GET', `/platforms?limit=1&cursor=${first.body.nextCursor}`, { auth: viewer.auth });
    expect(second.body).toMatchObject({ data: [{ id: other.platformId, name: 'Another platform' }], hasMore: false });
  });

  it('refuses platform credentials on the operator API and operator credentials on the platform API (401), and nobody unauthenticated', async () => {
    for (const auth of [t.tenant.production, t.tenant.sandbox]) {
      const refused = await t.operatorCall('GET', '/audit-events', { auth });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
    const anonymous = await http('GET', `${origin}/operator/v1/me`, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    for (const operator of [admin, viewer]) {
      for (const path of ['/config', '/customers', '/tokens']) {
        const refused = await t.call('GET', path, { auth: operator.auth });
        expect(refused.status).toBe(401);
      }
    }
    // An operator route that does not exist is the envelope's 404, as on the platform API.
    expect((await t.operatorCall('GET', '/nothing-here', { auth: admin.auth })).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('serves its own OpenAPI document, which the platform document does not mix with', async () => {
    const doc = await http('GET', `${origin}/operator/v1/openapi.json`, {});
    expect(doc.status).toBe(200);
    expect(doc.body.info.title).toBe('Payments Platform operator API');
    expect(doc.body.servers).toEqual([{ url: '/operator/v1' }]);
    const documented = Object.entries(doc.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([, item]) => Object.values(item).map((o) => o.operationId));
    expect(documented.sort()).toEqual(OPERATOR_OPERATIONS.map((o) => o.operationId).sort());
    const platformDoc = await http('GET', `${origin}/openapi.json`, {});
    expect(Object.keys(platformDoc.body.paths)).not.toContain('/audit-events');
    expect((await http('GET', `${origin}/operator/v1/docs`, {})).status).toBe(200);
  });

  it('keeps an audit log of operator actions with who, what, when, filters and cursors; a disabled operator is locked out at once', async () => {
    const reviewer = await t.createOperator('REVIEWER', 'Rita Reviewer');
    expect((await t.operatorCall('GET', '/me', { auth: reviewer.auth })).status).toBe(200);
    await t.platform.identity.operators.disable(reviewer.id);
    expect((await t.operatorCall('GET', '/me', { auth: reviewer.auth })).status).toBe(401);

    const log = await eventually(async () => {
      const page = await t.operatorCall('GET', '/audit-events?action=operator.*', { auth: viewer.auth });
      expect(page.body.totalCount).toBe(4); // Ada, Vic, Rita created; Rita disabled
      return page.body;
    });
    expect(log.data[0]).toEqual({
      id: expect.any(String),
      service: 'identity',
      operator: { id: 'admin-cli', name: expect.stringMatching(/^admin CLI/), role: 'ADMIN' },
      action: 'operator.disable',
      target: { type: 'Operator', id: reviewer.id },
      occurredAt: expect.any(String),
    });
    expect(log.data[1]).toMatchObject({ action: 'operator.create', target: { type: 'Operator', id: reviewer.id }, details: { name: 'Rita Reviewer', role: 'REVIEWER' } });

    const byTarget = await t.operatorCall('GET', `/audit-events?targetId=${encodeURIComponent(reviewer.id)}&limit=1`, { auth: viewer.auth });
    expect(byTarget.body).toMatchObject({ data: [{ action: 'operator.disable' }], hasMore: true, totalCount: 2 });
    const next = await t.operatorCall('GET', `/audit-events?targetId=${encodeURIComponent(reviewer.id)}&limit=1&cursor=${byTarget.body.nextCursor}`, { auth: viewer.auth });
    expect(next.body).toMatchObject({ data: [{ action: 'operator.create' }], hasMore: false });

    const none = await t.operatorCall('GET', `/audit-events?occurredAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { auth: viewer.auth });
    expect(none.body).toMatchObject({ data: [], totalCount: 0 });
    const bad = await t.operatorCall('GET', '/audit-events?action=DROP%20TABLE&occurredAfter=yesterday', { auth: viewer.auth });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    const badCursor = await t.operatorCall('GET', '/audit-events?cursor=not-a-cursor', { auth: viewer.auth });
    expect(badCursor.status).toBe(400);
  });

  it('keeps secrets as keyed hashes: the operator secret is nowhere in the log or the read models', async () => {
    const db = t.platform.identity.host.dataSource;
    const [row] = await db.query(`SELECT secret_hash FROM identity.operators WHERE operator_id = $1`, [admin.id]);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    const leaks = await db.query(`SELECT count(*)::int AS n FROM identity.events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${admin.clientSecret}%`]);
    expect(leaks[0].n).toBe(0);
  });
});
