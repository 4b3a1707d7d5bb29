import { startTestPlatform, TestPlatform } from './test-platform';
import { agentPolicy, bearer, createAgent, redeem } from './test-agents';

/**
 * Agent credentials (issue #27 item 4) through real HTTP: device codes of at least 128 bits that live
 * AGENT_DEVICE_CODE_TTL_SECONDS, access tokens that expire after AGENT_ACCESS_TOKEN_TTL_SECONDS and can be revoked
 * one by one (the gateway asks the agents service on every request, so a revoked token stops at once), and failed
 * redemptions limited per code, per source address and globally (429 with Retry-After in the error envelope).
 */
const CODE_TTL_S = 2;
const TOKEN_TTL_S = 8;
/** 28 characters of a 32-letter alphabet in groups of four: 140 bits. */
const DEVICE_CODE = /^[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){6}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('agent credentials (HTTP)', () => {
  let t: TestPlatform;
  let customerId: string;

  beforeAll(async () => {
    t = await startTestPlatform({ AGENT_DEVICE_CODE_TTL_SECONDS: String(CODE_TTL_S), AGENT_ACCESS_TOKEN_TTL_SECONDS: String(TOKEN_TTL_S), TRUST_PROXY: 'loopback' });
    customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Agent Credentials' } })).body.id;
  });
  afterAll(() => t?.stop());

  const me = (token: string) => t.call('GET', '/agents/me', { auth: bearer(token) });

  it('device codes carry at least 128 bits and live AGENT_DEVICE_CODE_TTL_SECONDS', async () => {
    const created = (await createAgent(t, customerId, agentPolicy(), { name: 'Code bits' })).body;
    const { code, expiresAt } = created.deviceCode;
    expect(code).toMatch(DEVICE_CODE);
    expect(Math.floor(code.replace(/-/g, '').length * Math.log2(32))).toBeGreaterThanOrEqual(128);
    expect(Date.parse(expiresAt) - Date.parse(created.agent.createdAt)).toBe(CODE_TTL_S * 1000);
    const issued = (await t.call('POST', `/agents/${created.agent.id}/device-codes`)).body;
    expect(issued.code).toMatch(DEVICE_CODE);
    await sleep(CODE_TTL_S * 1000 + 300);
    expect((await redeem(t, issued.code)).body).toMatchObject({ status: 400, code: 'DEVICE_CODE_INVALID' });
  });

  it('access tokens are listed with their expiry and revoked one by one: the revoked one is 401 at once, the other works', async () => {
    const other = await t.createTenant('agent-credentials-other');
    const agentId = (await createAgent(t, customerId, agentPolicy(), { name: 'Two installs' })).body.agent.id;
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const code = (await t.call('POST', `/agents/${agentId}/device-codes`)).body.code;
      tokens.push((await redeem(t, code)).body.accessToken);
    }
    for (const token of tokens) expect((await me(token)).status).toBe(200);

    const listed = await t.call('GET', `/agents/${agentId}/access-tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(2);
    for (const item of listed.body.data) {
      expect(item).toEqual({ id: expect.stringMatching(/^AgentAccessToken:/), agentId, status: 'ACTIVE', createdAt: expect.any(String), expiresAt: expect.any(String) });
      expect(Date.parse(item.expiresAt) - Date.parse(item.createdAt)).toBe(TOKEN_TTL_S * 1000);
      expect(JSON.stringify(item)).not.toContain(tokens[0].slice(4));
    }
    const [newest, oldest] = listed.body.data; // newest first

    expect((await t.call('DELETE', `/agents/${agentId}/access-tokens/${oldest.id}`, { auth: other.sandbox })).status).toBe(404);
    expect((await t.call('DELETE', `/agents/${agentId}/access-tokens/${oldest.id}`, { auth: t.tenant.production })).status).toBe(404);
    expect((await t.call('DELETE', `/agents/${agentId}/access-tokens/AgentAccessToken:nope`)).status).toBe(404);
    expect((await t.call('DELETE', `/agents/${agentId}/access-tokens/${oldest.id}`)).status).toBe(204);
    expect((await me(tokens[0])).body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await me(tokens[1])).status).toBe(200);
    const after = (await t.call('GET', `/agents/${agentId}/access-tokens`)).body.data;
    expect(after.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      [newest.id, 'ACTIVE'],
      [oldest.id, 'REVOKED'],
    ]);
    expect((await t.call('DELETE', `/agents/${agentId}/access-tokens/${oldest.id}`)).status).toBe(204); // revoking again changes nothing
  });

  it('an access token expires after AGENT_ACCESS_TOKEN_TTL_SECONDS: 401 from then on', async () => {
    const created = (await createAgent(t, customerId, agentPolicy(), { name: 'Expiring' })).body;
    const token = (await redeem(t, created.deviceCode.code)).body.accessToken;
    expect((await me(token)).status).toBe(200);
    await sleep(TOKEN_TTL_S * 1000 + 300);
    const expired = await me(token);
    expect(expired.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await t.call('GET', `/agents/${created.agent.id}/access-tokens`)).body.data[0].status).toBe('EXPIRED');
  }, 30_000);

  it('failed redemptions are limited per code and per source address: 429 with Retry-After in the error envelope', async () => {
    const created = (await createAgent(t, customerId, agentPolicy(), { name: 'Hammered' })).body;
    const code = created.deviceCode.code;
    // Its own source address (the gateway trusts X-Forwarded-For from loopback here, as from an ingress): failures of
    // the other tests, still inside their window, do not count against it.
    const redeemFrom = (deviceCode: string) => t.call('POST', `/agents/device-codes/${encodeURIComponent(deviceCode)}/redeem`, { auth: '', headers: { 'x-forwarded-for': '203.0.113.77' } });
    expect((await redeemFrom(code)).status).toBe(200);
    const failures = [];
    for (let i = 0; i < 6; i++) failures.push(await redeemFrom(code)); // already redeemed: each a failure
    expect(failures.slice(0, 5).map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect(failures[5].status).toBe(429);
    expect(failures[5].body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(failures[5].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Other codes from the same address: the per-source budget (10 failures) runs out next.
    const unknown = () => `${'ZZZZ-'.repeat(6)}ZZZ${Math.floor(Math.random() * 8) + 2}`;
    const more = [];
    for (let i = 0; i < 6; i++) more.push((await redeemFrom(unknown())).status);
    expect(more).toEqual([404, 404, 404, 404, 404, 429]); // failures 6 to 10 are answered, the 11th attempt is refused
    // A good code from a throttled address waits too: the address is refused before any lookup.
    const fresh = (await t.call('POST', `/agents/${created.agent.id}/device-codes`)).body.code;
    expect((await redeemFrom(fresh)).status).toBe(429);
  });
});
