import { Client } from 'pg';
import { startTestPlatform, TestPlatform } from './test-platform';

describe('Idempotency-Key on POST', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  const tokenCount = async (auth?: string) => (await t.call('GET', '/tokens?limit=1', auth ? { auth } : {})).body.totalCount as number;

  it('replays the first response for the same key and body, without creating twice or replaying the secret', async () => {
    const before = await tokenCount();
    const headers = { 'Idempotency-Key': 'create-reporting-1' };
    const first = await t.call('POST', '/tokens', { headers, body: { name: 'reporting', permissions: ['VIEW'] } });
    const again = await t.call('POST', '/tokens', { headers, body: { permissions: ['VIEW'], name: 'reporting' } }); // key order differs
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const { clientSecret, ...withoutSecret } = first.body;
    expect(clientSecret).toBeDefined();
    expect(again.body).toEqual(withoutSecret); // secrets are shown once, even to a replay
    expect(await tokenCount()).toBe(before + 1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for the same key with another body', async () => {
    const headers = { 'Idempotency-Key': 'reused' };
    expect((await t.call('POST', '/tokens', { headers, body: { name: 'a', permissions: ['VIEW'] } })).status).toBe(201);
    const other = await t.call('POST', '/tokens', { headers, body: { name: 'b', permissions: ['VIEW'] } });
    expect(other.body).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String) });
  });

  it('lets exactly one of many concurrent duplicates run; the others replay or get 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const before = await tokenCount();
    const headers = { 'Idempotency-Key': 'concurrent-1' };
    const results = await Promise.all(Array.from({ length: 8 }, () => t.call('POST', '/tokens', { headers, body: { name: 'race', permissions: ['VIEW'] } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await tokenCount()).toBe(before + 1);
    const ids = new Set(results.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(ids.size).toBe(1);
  });

  it('scopes keys per platform and mode', async () => {
    const other = await t.createTenant();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const body = { name: 'same', permissions: ['VIEW'] };
    const mine = await t.call('POST', '/tokens', { headers, body });
    const theirs = await t.call('POST', '/tokens', { headers, body, auth: other.sandbox });
    const production = await t.call('POST', '/tokens', { headers, body, auth: t.tenant.production });
    for (const r of [mine, theirs, production]) {
      expect(r.status).toBe(201);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([mine.body.id, theirs.body.id, production.body.id]).size).toBe(3);
  });

  it('replays a client error too, keeps records at least 24 h, and rejects malformed keys', async () => {
    const headers = { 'Idempotency-Key': 'bad-body' };
    const first = await t.call('POST', '/tokens', { headers, body: { name: 'x', permissions: [] } });
    const again = await t.call('POST', '/tokens', { headers, body: { name: 'x', permissions: [] } });
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const client = new Client({ connectionString: t.database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT min(extract(epoch from expires_at - created_at))::int AS s FROM gateway.idempotency_keys`);
      expect(rows[0].s).toBeGreaterThanOrEqual(24 * 3600);
    } finally {
      await client.end();
    }
    const tooLong = await t.call('POST', '/tokens', { headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: { name: 'x', permissions: ['VIEW'] } });
    expect(tooLong.status).toBe(400);
  });
});
