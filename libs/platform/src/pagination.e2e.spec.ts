import { startTestPlatform, TestPlatform } from './test-platform';

describe('pagination (GET /tokens, the shared keyset helper)', () => {
  let t: TestPlatform;
  let auth: string;
  beforeAll(async () => {
    t = await startTestPlatform();
    auth = (await t.createTenant('paging')).sandbox; // a fresh tenant: exactly one token to start with
    for (let i = 0; i < 24; i++) expect((await t.call('POST', '/tokens', { auth, body: { name: `t${i}`, permissions: ['VIEW'] } })).status).toBe(201);
  });
  afterAll(() => t.stop());

  it('walks every page once, newest first, while new items are being inserted', async () => {
    const before = (await t.call('GET', '/tokens?limit=100', { auth })).body;
    expect(before.totalCount).toBe(25);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await t.call('GET', `/tokens?limit=7${cursor ? `&cursor=${cursor}` : ''}`, { auth });
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.data.map((tok: { id: string }) => tok.id));
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(cursor !== undefined);
      // Someone keeps creating tokens while we page.
      await t.call('POST', '/tokens', { auth, body: { name: `late${pages}`, permissions: ['VIEW'] } });
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(before.data.map((tok: { id: string }) => tok.id));
  });

  it('uses 20 as the default limit and reports totalCount over all pages', async () => {
    const page = await t.call('GET', '/tokens', { auth });
    expect(page.body.data).toHaveLength(20);
    expect(page.body.hasMore).toBe(true);
    expect(page.body.totalCount).toBeGreaterThanOrEqual(25);
  });

  it.each([['limit=0'], ['limit=101'], ['limit=abc'], ['limit=1.5'], ['cursor=not-a-cursor'], ['cursor=eyJ2IjoyfQ'], ['cursor=%00%01']])(
    'answers 400 INVALID_INPUT for %s',
    async (query) => {
      const res = await t.call('GET', `/tokens?${query}`, { auth });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [expect.objectContaining({ field: expect.stringMatching(/limit|cursor/) })] } });
    },
  );
});
