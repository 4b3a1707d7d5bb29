import { ContactDeliveryRecorder } from './test-contact-delivery';
import { startTestPlatform, TestPlatform } from './test-platform';

const eu = (suffix: string) => ({ customerType: 'INDIVIDUAL', platformCustomerId: `eu-${suffix}`, fullName: `Eva ${suffix}`, region: 'DE', email: `eva.${suffix}@example.de`, phoneNumber: '+4915112345678' });

describe('contact verification through the gateway', () => {
  let t: TestPlatform;
  const delivery = new ContactDeliveryRecorder();
  const { delivered } = delivery;

  beforeAll(async () => {
    t = await startTestPlatform({ CONTACT_DELIVERY_URL: (await delivery.start()).url });
  });
  afterAll(async () => {
    await t.stop();
    delivery.stop();
  });

  it('lists only the channels an EU region requires, and answers 409 elsewhere', async () => {
    const euCustomer = (await t.call('POST', '/customers', { body: eu('r1') })).body;
    expect(euCustomer.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
    const us = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Sam', region: 'US', email: 'sam@example.com' } })).body;
    expect(us.contactVerification).toBeUndefined();
    const res = await t.call('POST', `/customers/${us.id}/verify-email`);
    expect(res.body).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('sandbox: 123456 verifies email and phone; nothing is delivered', async () => {
    const c = (await t.call('POST', '/customers', { body: eu('s1') })).body;
    const sent = await t.call('POST', `/customers/${c.id}/verify-email`);
    expect(sent.status).toBe(204); // published: 204, no body
    expect(sent.body).toBeUndefined();
    const ok = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '123456' } });
    expect(ok.status).toBe(200);
    expect(ok.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'PENDING' });
    await t.call('POST', `/customers/${c.id}/verify-phone`);
    const phone = await t.call('POST', `/customers/${c.id}/verify-phone/confirm`, { body: { code: '123456' } });
    expect(phone.body.contactVerification).toEqual({ email: 'VERIFIED', phone: 'VERIFIED' });
    expect((await t.call('POST', `/customers/${c.id}/verify-email`)).body.code).toBe('CONFLICT'); // already verified
    expect(delivered.filter((d) => d.customerId === c.id)).toEqual([]);
  });

  it('counts wrong codes and locks the channel with 423 ACCOUNT_LOCKED after five', async () => {
    const c = (await t.call('POST', '/customers', { body: eu('w1') })).body;
    expect((await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '123456' } })).body.code).toBe('INVALID_INPUT'); // no code sent yet
    await t.call('POST', `/customers/${c.id}/verify-email`);
    for (let i = 1; i <= 4; i++) {
      const wrong = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '000000' } });
      expect(wrong.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { attemptsLeft: 5 - i } });
    }
    const locked = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '000000' } });
    expect(locked.body).toMatchObject({ status: 423, code: 'ACCOUNT_LOCKED', details: { suspended: true, failedAttempts: 5, lockedUntil: expect.any(String) } });
    const stillLocked = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '123456' } });
    expect(stillLocked.status).toBe(423); // even the right code
    expect((await t.call('POST', `/customers/${c.id}/verify-email`)).status).toBe(423);
  });

  it('changing the email makes it PENDING again', async () => {
    const c = (await t.call('POST', '/customers', { body: eu('c1') })).body;
    await t.call('POST', `/customers/${c.id}/verify-email`);
    await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { body: { code: '123456' } });
    const changed = await t.call('PATCH', `/customers/${c.id}`, { body: { email: 'eva.new@example.de' } });
    expect(changed.body.contactVerification).toEqual({ email: 'PENDING', phone: 'PENDING' });
  });

  it('production: a random code goes to the delivery gateway, is stored only hashed, and verifies', async () => {
    const c = (await t.call('POST', '/customers', { auth: t.tenant.production, body: { ...eu('p1'), umaAddress: '$eva-p1@pay.example.com' } })).body;
    expect((await t.call('POST', `/customers/${c.id}/verify-email`, { auth: t.tenant.production })).status).toBe(204);
    const message = delivered.find((d) => d.customerId === c.id)!;
    expect(message).toMatchObject({ channel: 'email', destination: 'eva.p1@example.de', code: expect.stringMatching(/^\d{6}$/) });
    const leak = await t.platform.identity.host.dataSource.query(`SELECT count(*)::int AS n FROM identity.events WHERE stream_id = $1 AND data::text LIKE $2`, [c.id, `%${message.code}%`]);
    expect(leak[0].n).toBe(0);
    if (message.code !== '123456') {
      expect((await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { auth: t.tenant.production, body: { code: '123456' } })).status).toBe(400);
    }
    const ok = await t.call('POST', `/customers/${c.id}/verify-email/confirm`, { auth: t.tenant.production, body: { code: message.code } });
    expect(ok.body.contactVerification.email).toBe('VERIFIED');
  });

  it('production without a delivery gateway answers 501 (not configured) before issuing a code, rather than pretending', async () => {
    const bare = await startTestPlatform();
    try {
      const c = (await bare.call('POST', '/customers', { auth: bare.tenant.production, body: { ...eu('n1'), umaAddress: '$eva-n1@pay.example.com' } })).body;
      const res = await bare.call('POST', `/customers/${c.id}/verify-email`, { auth: bare.tenant.production });
      expect(res.body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED', message: expect.stringContaining('CONTACT_DELIVERY_URL'), details: { capability: 'CONTACT_DELIVERY', configure: 'CONTACT_DELIVERY_URL' } });
    } finally {
      await bare.stop();
    }
  });
});
