import { basicAuth } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

/**
 * Failed HTTP Basic attempts are throttled per client id and per source address before any credential is looked up
 * (no database work): guessing a secret costs a window per few tries. The gateway trusts X-Forwarded-For from the
 * loopback here (TRUST_PROXY=loopback), as it would from an ingress, so each test speaks from its own address.
 */
describe('failed HTTP Basic attempts are throttled (429, Retry-After) before any lookup', () => {
  let t: TestPlatform;
  let verify: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestPlatform({ AUTH_FAILURES_PER_CLIENT: '5', AUTH_FAILURES_PER_ADDRESS: '8', AUTH_FAILURE_WINDOW_SECONDS: '2', TRUST_PROXY: 'loopback' });
    verify = jest.spyOn(t.platform.identity.credentials, 'verify');
  }, 60_000);
  afterAll(() => t?.stop());

  const from = (address: string, auth: string) => t.call('GET', '/config', { auth, headers: { 'x-forwarded-for': address } });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('per client id: after 5 wrong secrets even the right one is 429 with Retry-After, unverified; it works after the window', async () => {
    const { clientId, clientSecret } = t.bootstrap.SANDBOX;
    expect((await from('203.0.113.1', t.tenant.sandbox)).status).toBe(200); // cached now: the throttle must come first still
    for (let i = 0; i < 5; i++) {
      // A new address each time: this is the client id's limit, not the address's.
      const res = await from(`203.0.113.${10 + i}`, basicAuth(clientId, `wrong-${i}`));
      expect(res.status).toBe(401);
    }
    verify.mockClear();
    for (const [address, secret] of [['203.0.113.30', 'wrong-again'], ['203.0.113.31', clientSecret]]) {
      const res = await from(address, basicAuth(clientId, secret));
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ status: 429, code: 'RATE_LIMITED', message: expect.stringContaining('failed authentication'), details: { retryAfterSeconds: expect.any(Number) } });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    }
    expect(verify).not.toHaveBeenCalled();
    // Another tenant's credential is not held back by it.
    const other = await t.createTenant();
    expect((await from('203.0.113.32', other.sandbox)).status).toBe(200);

    await sleep(2_100);
    expect((await from('203.0.113.33', t.tenant.sandbox)).status).toBe(200);
  });

  it('per source address: 8 failures with any client ids hold back that address, not the others', async () => {
    for (let i = 0; i < 8; i++) expect((await from('198.51.100.7', basicAuth(`guess-${i}`, 'wrong'))).status).toBe(401);
    verify.mockClear();
    const held = await from('198.51.100.7', t.tenant.production);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toMatch(/^[12]$/);
    expect(verify).not.toHaveBeenCalled();
    expect((await from('198.51.100.8', t.tenant.production)).status).toBe(200);
    // Without a client id nothing is looked up, so nothing counts: a held-back address is still held back, though.
    for (let i = 0; i < 12; i++) expect((await from('198.51.100.9', 'Basic !!!')).status).toBe(401);
    expect((await from('198.51.100.9', t.tenant.sandbox)).status).toBe(200);
    expect((await from('198.51.100.7', 'Basic !!!')).status).toBe(429);
  });
});
