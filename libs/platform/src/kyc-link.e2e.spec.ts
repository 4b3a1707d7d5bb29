import { redactSecrets } from '@payments/identity';
import { startTestPlatform, TestPlatform } from './test-platform';

const euCustomer = (n: number) => ({ customerType: 'INDIVIDUAL', fullName: `Eu Person ${n}`, region: 'DE', email: `eu${n}@example.de`, phoneNumber: '+4915112345678' });

/** The hosted page is a browser's business: no credentials, redirects not followed, HTML back. */
const openPage = async (url: string, method = 'GET') => {
  const response = await fetch(url, { method, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location'), headers: response.headers, html: await response.text() };
};

describe('hosted KYC link (real HTTP)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
  });
  afterAll(() => t.stop());

  const verify = async (customerId: string, channel: 'email' | 'phone') => {
    expect((await t.call('POST', `/customers/${customerId}/verify-${channel}`)).status).toBe(204);
    expect((await t.call('POST', `/customers/${customerId}/verify-${channel}/confirm`, { body: { code: '123456' } })).status).toBe(200);
  };

  it('is refused (409) until every required contact channel is verified, then issued without touching kycStatus', async () => {
    const customer = (await t.call('POST', '/customers', { body: euCustomer(1) })).body;
    expect(customer.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const early = await t.call('POST', `/customers/${customer.id}/kyc-link`, { body: {} });
    expect(early.body).toMatchObject({ status: 409, code: 'CONFLICT', details: { unverifiedChannels: ['email', 'phone'] } });
    await verify(customer.id, 'email');
    expect((await t.call('POST', `/customers/${customer.id}/kyc-link`, { body: {} })).body).toMatchObject({ status: 409, details: { unverifiedChannels: ['phone'] } });
    await verify(customer.id, 'phone');

    const issued = await t.call('POST', `/customers/${customer.id}/kyc-link`, { body: { redirectUri: 'https://platform.example.com/kyc/done?c=1' } });
    expect(issued.status).toBe(201);
    expect(issued.body).toEqual({ kycUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/kyc\/[A-Za-z0-9_-]{43}$/), expiresAt: expect.any(String), provider: 'SUMSUB' });
    const ttlMs = Date.parse(issued.body.expiresAt) - Date.now();
    expect(ttlMs).toBeGreaterThan(23.9 * 3_600_000);
    expect(ttlMs).toBeLessThanOrEqual(24 * 3_600_000);
    expect((await t.call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');

    // The page: once (a redirect to redirectUri), then 410; kycStatus still untouched.
    const first = await openPage(issued.body.kycUrl);
    expect(first).toMatchObject({ status: 303, location: 'https://platform.example.com/kyc/done?c=1' });
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const second = await openPage(issued.body.kycUrl);
    expect(second.status).toBe(410);
    expect(second.headers.get('content-type')).toMatch(/^text\/html/);
    expect(second.html).toMatch(/no longer valid/);
    expect((await t.call('GET', `/customers/${customer.id}`)).body.kycStatus).toBe('UNVERIFIED');
  });

  it('needs no verification where the region requires none; the page completes without a redirectUri', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Us Person' } })).body;
    expect(customer.contactVerification).toBeUndefined();
    const issued = await t.call('POST', `/customers/${customer.id}/kyc-link`);
    expect(issued.status).toBe(201);
    expect((await openPage(issued.body.kycUrl, 'HEAD')).status).toBe(200); // a link preview does not use the link up
    const page = await openPage(issued.body.kycUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.html).toMatch(/Verification complete/);
    expect((await openPage(issued.body.kycUrl)).status).toBe(410);
    expect((await openPage(issued.body.kycUrl.replace(/[^/]{4}$/, 'AAAA'))).status).toBe(404);
    expect((await openPage(`${new URL(t.url).origin}/kyc/nonsense`)).status).toBe(404);
  });

  it('replays the same answer without the link (shown once) for the same Idempotency-Key, and a new link for a new key', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Idem Person' } })).body;
    const send = (key: string) => t.call('POST', `/customers/${customer.id}/kyc-link`, { body: {}, headers: { 'idempotency-key': key } });
    const first = await send('kyc-idem-1');
    const replay = await send('kyc-idem-1');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const { kycUrl, token: _token, ...rest } = first.body;
    expect(kycUrl).toEqual(expect.any(String));
    expect(replay.body).toEqual(rest); // the link is shown once: the Idempotency-Key record keeps the answer without it
    const other = await send('kyc-idem-2');
    expect(other.body.kycUrl).not.toBe(first.body.kycUrl);
  });

  it('validates redirectUri: https, or http only to this machine', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Redirect Person' } })).body;
    const send = (body: unknown) => t.call('POST', `/customers/${customer.id}/kyc-link`, { body });
    for (const redirectUri of ['http://platform.example.com/done', 'ftp://localhost/x', 'not a url', 'https://user:pw@example.com/', 42]) {
      expect((await send({ redirectUri })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'redirectUri' }] } });
    }
    expect((await send({ redirectUri: 'http://localhost:5173/kyc-done' })).status).toBe(201);
    expect((await send({ redirectUri: 'http://127.0.0.1/kyc-done' })).status).toBe(201);
    expect((await send({ shoeSize: 44 })).body).toMatchObject({ status: 400, details: { errors: [{ field: 'shoeSize' }] } });
    expect((await t.call('POST', '/customers/Customer:00000000-0000-7000-8000-000000000000/kyc-link', { body: {} })).status).toBe(404);
  });

  it('stores only a keyed hash of the token, and keeps the hash off the bus', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Hash Person' } })).body;
    const issued = await t.call('POST', `/customers/${customer.id}/kyc-link`, { body: {} });
    const token = issued.body.kycUrl.split('/').pop();
    const db = t.platform.identity.host.dataSource;
    const [link] = await db.query(`SELECT * FROM identity.kyc_links WHERE customer_id = $1`, [customer.id]);
    expect(link.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(link)).not.toContain(token);
    const [event] = await db.query(`SELECT * FROM identity.events WHERE type = 'KycLinkIssued.v1' AND data->>'customerId' = $1`, [customer.id]);
    expect(JSON.stringify(event)).not.toContain(token);
    const published = redactSecrets({ ...event, type: event.type, data: event.data } as never);
    expect(published.data).not.toHaveProperty('secretHash');
    expect(published.data).toMatchObject({ customerId: customer.id, provider: 'SUMSUB' });
  });

  it('keeps links to the platform and mode of the customer', async () => {
    const stranger = await t.createTenant('kyc stranger');
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Tenant Person' } })).body;
    for (const auth of [stranger.sandbox, stranger.production, t.tenant.production]) {
      expect((await t.call('POST', `/customers/${customer.id}/kyc-link`, { auth, body: {} })).body).toMatchObject({ status: 404 });
    }
    const viewer = await t.call('POST', '/tokens', { body: { name: 'kyc viewer', permissions: ['VIEW'] } });
    const viewOnly = `Basic ${Buffer.from(`${viewer.body.clientId}:${viewer.body.clientSecret}`).toString('base64')}`;
    expect((await t.call('POST', `/customers/${customer.id}/kyc-link`, { auth: viewOnly, body: {} })).status).toBe(403);
  });
});
