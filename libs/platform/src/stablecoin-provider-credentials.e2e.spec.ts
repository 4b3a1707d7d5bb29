import { createServer, Server } from 'node:http';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { idem } from './test-stablecoins';

/**
 * Provider credentials are never shared across platforms (issue #27 item 3): the production adapter (Brale) against a
 * local HTTP server that answers Brale's documented OAuth2 client-credentials token endpoint and `GET /accounts` as
 * Brale does. A provider token cached for one platform's link must not let another platform link the same provider
 * account with a wrong secret: linking always makes a real token exchange with the secret it was given.
 */
const CLIENTS: Record<string, { secret: string; account: string }> = {
  'victim-client': { secret: 'victim-secret', account: '2VcUIonJeVQzFoBuC7LdFT0dRe4' },
};

describe('Stablecoin provider credentials (HTTP, production, Brale)', () => {
  let brale: Server;
  let t: TestPlatform;
  let attacker: TestTenant;
  const tokenRequests: string[] = [];

  beforeAll(async () => {
    brale = createServer(async (req, res) => {
      for await (const _ of req); // drain the body
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.url === '/oauth2/token' && req.method === 'POST') {
        const [id, secret] = Buffer.from(String(req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString('utf8').split(':');
        tokenRequests.push(id);
        return CLIENTS[id]?.secret === secret ? send(200, { access_token: `token-of-${id}`, token_type: 'bearer', expires_in: 3600 }) : send(401, { error: 'invalid_client' });
      }
      const client = Object.keys(CLIENTS).find((id) => req.headers.authorization === `Bearer token-of-${id}`);
      if (!client) return send(401, {});
      if (req.url === '/accounts') return send(200, { accounts: [CLIENTS[client].account] });
      return send(404, {});
    });
    await new Promise<void>((resolve) => brale.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(brale.address() as { port: number }).port}`;
    t = await startTestPlatform({ BRALE_API_URL: base, BRALE_AUTH_URL: `${base}/oauth2/token` });
    attacker = await t.createTenant('provider-credentials-attacker');
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise<void>((resolve) => brale?.close(() => resolve()));
  });

  const linkAs = (auth: string, apiClientId: string, apiClientSecret: string) =>
    t.call('POST', '/stablecoin-provider-accounts', { auth, headers: idem(), body: { provider: 'BRALE', apiClientId, apiClientSecret } });

  it("another platform cannot link a victim's provider account with a wrong secret while the victim's token is cached: 400, nothing linked", async () => {
    const victim = await linkAs(t.tenant.production, 'victim-client', 'victim-secret');
    expect(victim.status).toBe(201);
    expect(victim.body).toMatchObject({ providerAccountId: CLIENTS['victim-client'].account, status: 'ACTIVE', providerEnvironment: 'PRODUCTION' });

    const before = tokenRequests.length;
    const stolen = await linkAs(attacker.production, 'victim-client', 'any-guess');
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ status: 400, code: 'STABLECOIN_PROVIDER_ACCOUNT_INVALID' });
    expect(tokenRequests.length).toBe(before + 1); // a real token exchange with the secret given, not the cached token
    expect((await t.call('GET', '/stablecoin-provider-accounts', { auth: attacker.production })).body.totalCount).toBe(0);
  });

  it('linking again with the right secret also exchanges a token (a cached one never stands in for the check)', async () => {
    const before = tokenRequests.length;
    const again = await linkAs(attacker.production, 'victim-client', 'victim-secret');
    expect(again.status).toBe(201); // the secret is the proof: whoever holds it may link
    expect(tokenRequests.length).toBe(before + 1);
  });
});
