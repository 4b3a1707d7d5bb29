import { v7 as uuidv7 } from 'uuid';
import { basicAuth, SoftwareAuthenticator } from '@payments/testing';
import { passkeyChallenge } from '@payments/quoting';
import { startTestPlatform, TestPlatform } from './test-platform';
import { createEuCustomer, enrolPasskey, passkeyRegistration } from './test-sca';

const APP = 'https://app.pay.localhost:8443';
const SECOND_APP = 'http://localhost:5173';

describe('SCA passkey enrolment (HTTP, real PostgreSQL, real WebAuthn)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ SCA_PASSKEY_RP_ID: 'localhost', SCA_PASSKEY_ORIGINS: `${APP}, ${SECOND_APP}` });
  });
  afterAll(() => t.stop());

  const passkey = (customerId: string) => `/customers/${customerId}/sca/passkey`;
  const options = (customerId: string) => t.call('POST', `${passkey(customerId)}/registration-options`);

  it('issues creation options, enrols the passkey, reads it, refuses a second one (409) and removes it', async () => {
    const customerId = await createEuCustomer(t, t.tenant.sandbox);
    const issued = await options(customerId);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      passkeyAllowedOrigins: [APP, SECOND_APP],
      expiresAt: expect.any(String),
      options: { rp: { id: 'localhost' }, user: { name: customerId }, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{16,}$/), attestation: 'none', authenticatorSelection: { userVerification: 'required' } },
    });
    const ttl = Date.parse(issued.body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);

    const authenticator = new SoftwareAuthenticator();
    const registrationResponse = authenticator.register({ challenge: issued.body.options.challenge, origin: SECOND_APP, rpId: 'localhost' });
    const enrolled = await t.call('POST', passkey(customerId), { body: { registrationResponse, origin: SECOND_APP } });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body).toEqual({ id: expect.stringMatching(/^ScaPasskey:[0-9a-f-]{36}$/), customerId, credentialId: authenticator.id, transports: ['internal'], createdAt: expect.any(String) });
    expect((await t.call('GET', passkey(customerId))).body).toEqual(enrolled.body);

    expect((await options(customerId)).body).toMatchObject({ status: 409, code: 'PASSKEY_ALREADY_ENROLLED' });
    const factors = t.platform.quoting.scaFactors;
    expect(await factors.availableFactors(await platformIdOf(customerId), 'SANDBOX', customerId)).toEqual(['SMS_OTP', 'PASSKEY']);

    expect((await t.call('DELETE', passkey(customerId))).status).toBe(204);
    expect((await t.call('GET', passkey(customerId))).body).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await t.call('DELETE', passkey(customerId))).status).toBe(404);
    const again = await enrolPasskey(t, t.tenant.sandbox, customerId);
    expect((await t.call('GET', passkey(customerId))).body).toMatchObject({ credentialId: again.id });
    expect(await streamTypes(customerId)).toEqual(['ScaPasskeyEnrolled.v1', 'ScaPasskeyRemoved.v1', 'ScaPasskeyEnrolled.v1']);
  });

  it('answers a second enrolment 409 even with a fresh challenge issued before the first completed', async () => {
    const customerId = await createEuCustomer(t, t.tenant.sandbox);
    const first = await passkeyRegistration(t, t.tenant.sandbox, customerId);
    const second = await passkeyRegistration(t, t.tenant.sandbox, customerId);
    expect((await t.call('POST', passkey(customerId), { body: first })).status).toBe(201);
    expect((await t.call('POST', passkey(customerId), { body: second })).body).toMatchObject({ status: 409, code: 'PASSKEY_ALREADY_ENROLLED' });
  });

  it('refuses registrations that do not verify (400), and each challenge works once', async () => {
    const customerId = await createEuCustomer(t, t.tenant.sandbox);
    const fieldsOf = (body: { details?: { errors?: { field: string }[] } }) => body.details?.errors?.map((e) => e.field);
    const register = async (tweak: (c: { challenge: string; origin: string; rpId: string }) => Partial<{ challenge: string; origin: string; rpId: string }>, origin = APP) => {
      const { body } = await options(customerId);
      const ceremony = { challenge: body.options.challenge, origin: APP, rpId: 'localhost' };
      const registrationResponse = new SoftwareAuthenticator().register({ ...ceremony, ...tweak(ceremony) });
      return { challenge: ceremony.challenge, res: await t.call('POST', passkey(customerId), { body: { registrationResponse, origin } }) };
    };
    // An origin outside the allowed list, then an echoed origin that is not the ceremony's.
    expect(fieldsOf((await register(() => ({}), 'https://evil.example')).res.body)).toEqual(['origin']);
    const mismatch = await register(() => ({}), SECOND_APP);
    expect(mismatch.res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: expect.stringMatching(/origin/) });
    // Another RP id, and a challenge the server never issued.
    expect((await register(() => ({ rpId: 'evil.localhost' }))).res.body).toMatchObject({ status: 400, message: expect.stringMatching(/RP ID/i) });
    expect((await register(() => ({ challenge: Buffer.from('forged').toString('base64url') }))).res.body).toMatchObject({ status: 400, message: expect.stringMatching(/challenge/) });
    // User presence without verification is not enough for a second factor.
    const { body } = await options(customerId);
    const unverified = new SoftwareAuthenticator().register({ challenge: body.options.challenge, origin: APP, rpId: 'localhost' }, 0x01);
    expect((await t.call('POST', passkey(customerId), { body: { registrationResponse: unverified, origin: APP } })).body).toMatchObject({ status: 400, message: expect.stringMatching(/verif/) });
    // The challenge of the failed mismatch attempt is spent: the right answer to it is refused now.
    const late = new SoftwareAuthenticator().register({ challenge: mismatch.challenge, origin: APP, rpId: 'localhost' });
    expect((await t.call('POST', passkey(customerId), { body: { registrationResponse: late, origin: APP } })).body).toMatchObject({ status: 400, message: expect.stringMatching(/no open challenge/) });
    // Garbage in the opaque object is a 400 as well.
    for (const registrationResponse of [{}, { id: 'x', response: {} }, { response: { clientDataJSON: '%%%' } }]) {
      expect((await t.call('POST', passkey(customerId), { body: { registrationResponse, origin: APP } })).status).toBe(400);
    }
    expect((await t.call('GET', passkey(customerId))).status).toBe(404);
    // The challenge of one customer does not enrol another.
    const other = await createEuCustomer(t, t.tenant.sandbox);
    const foreign = await passkeyRegistration(t, t.tenant.sandbox, customerId);
    expect((await t.call('POST', passkey(other), { body: foreign })).body).toMatchObject({ status: 400, message: expect.stringMatching(/no open challenge/) });
    expect((await t.call('POST', passkey(customerId), { body: foreign })).status).toBe(201);
  });

  it('answers 404 for unknown customers, 409 SCA_NOT_REQUIRED outside the EU/EEA, 403 without MANAGE', async () => {
    const unknown = `Customer:${uuidv7()}`;
    expect((await options(unknown)).body).toMatchObject({ status: 404 });
    expect((await t.call('GET', passkey(unknown))).status).toBe(404);
    expect((await t.call('GET', passkey('not-an-id'))).status).toBe(404);
    const us = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Outside Sca' } })).body.id;
    expect((await options(us)).body).toMatchObject({ status: 409, code: 'SCA_NOT_REQUIRED' });
    const viewer = (await t.call('POST', '/tokens', { body: { name: 'sca-viewer', permissions: ['VIEW'] } })).body;
    const auth = basicAuth(viewer.clientId, viewer.clientSecret);
    const customerId = await createEuCustomer(t, t.tenant.sandbox);
    expect((await t.call('POST', `${passkey(customerId)}/registration-options`, { auth })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    await enrolPasskey(t, t.tenant.sandbox, customerId);
    expect((await t.call('GET', passkey(customerId), { auth })).status).toBe(200);
    expect((await t.call('DELETE', passkey(customerId), { auth })).status).toBe(403);
  });

  it('lets the quote authorization verify an assertion of the enrolled passkey against the configured origins', async () => {
    const customerId = await createEuCustomer(t, t.tenant.sandbox);
    const authenticator = await enrolPasskey(t, t.tenant.sandbox, customerId);
    const platformId = await platformIdOf(customerId);
    const challengeId = `ScaChallenge:${uuidv7()}`;
    const request = await t.platform.quoting.scaFactors.passkeyAssertionOptions(platformId, 'SANDBOX', customerId, challengeId);
    expect(request.challenge).toBe(passkeyChallenge(challengeId));
    const assertion = authenticator.assert({ challenge: request.challenge, origin: APP, rpId: request.rpId! });
    const verify = (origin: string) => t.platform.quoting.scaFactors.verify({ platformId, mode: 'SANDBOX', customerId, challengeId, factor: 'PASSKEY', authorization: { passkeyAssertion: assertion, origin }, now: new Date().toISOString() });
    expect(await verify('https://evil.example')).toMatchObject({ ok: false, code: 'SCA_AUTHORIZATION_FAILED' });
    expect(await verify(APP)).toEqual({ ok: true });
    expect(await verify(APP)).toMatchObject({ ok: false }); // replayed
  });

  async function streamTypes(customerId: string): Promise<string[]> {
    const rows = await t.platform.quoting.host.dataSource.query(`SELECT type FROM quoting.events WHERE stream_id = $1 ORDER BY stream_version`, [`ScaPasskey:${customerId}`]);
    return rows.map((r: { type: string }) => r.type);
  }

  async function platformIdOf(customerId: string): Promise<string> {
    const [row] = await t.platform.quoting.host.dataSource.query(`SELECT platform_id FROM quoting.events WHERE stream_id = $1 LIMIT 1`, [`ScaPasskey:${customerId}`]);
    return row.platform_id;
  }
});
