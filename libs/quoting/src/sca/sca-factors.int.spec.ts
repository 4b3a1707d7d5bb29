import { v7 as uuidv7 } from 'uuid';
import { Mode } from '@payments/contracts';
import { ServiceHost } from '@payments/runtime';
import { createTestDatabase, SoftwareAuthenticator, TestDatabase, WEBAUTHN_FLAGS } from '@payments/testing';
import { quotingMigrations } from '../quoting.migrations';
import { passkeyChallenge, ScaFactors, ScaVerifyArgs } from './sca-factors';
import { checkScaPasskeyConfig } from './sca-passkey.config';
import { ScaPasskeyService } from './sca-passkey.service';

const ORIGIN = 'https://app.example.com';
const RP_ID = 'example.com';
const config = checkScaPasskeyConfig({ rpId: RP_ID, origins: [ORIGIN, 'https://other.example.com'], rpName: 'Test' });
const platform = { platformId: 'Platform:01970000-0000-7000-8000-000000000001', mode: 'SANDBOX' as Mode };
const EU = 'DE';

/** The verifier and enrolment on a real PostgreSQL, without HTTP: the checks the quote authorization relies on. */
describe('SCA factors (real PostgreSQL)', () => {
  let database: TestDatabase;
  let host: ServiceHost;
  let passkeys: ScaPasskeyService;
  let factors: ScaFactors;
  beforeAll(async () => {
    database = await createTestDatabase();
    host = await ServiceHost.open({
      name: 'quoting',
      databaseUrl: database.url,
      bus: { publish: async () => undefined, ensureTopics: async () => undefined },
      topic: 'quoting.test',
      migrations: [quotingMigrations],
      entities: [],
      sandboxTimeScale: 1,
    });
    passkeys = new ScaPasskeyService(host.dataSource, host.executor, config, { registrationTtlMs: 300_000, openRegistrationsMax: 3 });
    factors = new ScaFactors(passkeys);
  });
  afterAll(async () => {
    await host.stop();
    await database.drop();
  });

  const now = () => new Date().toISOString();
  const newCustomer = () => `Customer:${uuidv7()}`;

  async function enrolled(authenticator = new SoftwareAuthenticator(), scope = platform) {
    const customerId = newCustomer();
    const { options } = await passkeys.registrationOptions(scope, { customerId, customerRegion: EU }, now());
    const registrationResponse = authenticator.register({ challenge: options.challenge as string, origin: ORIGIN, rpId: RP_ID });
    await passkeys.enrol(scope, { customerId, customerRegion: EU, registrationResponse, origin: ORIGIN }, now());
    return { customerId, authenticator };
  }

  const args = (customerId: string, challengeId: string, authorization: ScaVerifyArgs['authorization'], scope = platform): ScaVerifyArgs => ({
    ...scope,
    customerId,
    challengeId,
    factor: 'PASSKEY',
    authorization,
    now: now(),
  });
  const ceremony = (challengeId: string, origin = ORIGIN) => ({ challenge: passkeyChallenge(challengeId), origin, rpId: RP_ID });
  const challengeId = () => `ScaChallenge:${uuidv7()}`;
  const failure = (reason: RegExp) => ({ ok: false, code: 'SCA_AUTHORIZATION_FAILED', message: expect.stringMatching(reason) });

  it('offers PASSKEY only once enrolled, with assertion options bound to the enrolled credential and the challenge id', async () => {
    const bare = newCustomer();
    expect(await factors.availableFactors(platform.platformId, 'SANDBOX', bare)).toEqual(['SMS_OTP']);
    await expect(factors.passkeyAssertionOptions(platform.platformId, 'SANDBOX', bare, challengeId())).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const { customerId, authenticator } = await enrolled();
    expect(await factors.availableFactors(platform.platformId, 'SANDBOX', customerId)).toEqual(['SMS_OTP', 'PASSKEY']);
    const id = challengeId();
    const options = await factors.passkeyAssertionOptions(platform.platformId, 'SANDBOX', customerId, id);
    expect(options).toMatchObject({ rpId: RP_ID, challenge: passkeyChallenge(id), userVerification: 'required', allowCredentials: [{ id: authenticator.id, type: 'public-key' }] });
    expect(passkeyChallenge(id)).not.toBe(passkeyChallenge(challengeId()));
    // What a browser signs is the options' challenge: it must be the one verification expects.
    const signed = authenticator.assert({ challenge: options.challenge, origin: ORIGIN, rpId: options.rpId! });
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: signed, origin: ORIGIN }))).toEqual({ ok: true });
    expect(factors.passkeyAllowedOrigins).toEqual([ORIGIN, 'https://other.example.com']);
  });

  it('accepts a good assertion (with or without the echoed origin) and records its counter', async () => {
    const { customerId, authenticator } = await enrolled();
    const first = challengeId();
    expect(await factors.verify(args(customerId, first, { passkeyAssertion: authenticator.assert(ceremony(first)), origin: ORIGIN }))).toEqual({ ok: true });
    const second = challengeId();
    expect(await factors.verify(args(customerId, second, { passkeyAssertion: authenticator.assert(ceremony(second, 'https://other.example.com')) }))).toEqual({ ok: true });
    const [row] = await host.dataSource.query(`SELECT counter FROM quoting.sca_passkeys WHERE customer_id = $1`, [customerId]);
    expect(Number(row.counter)).toBe(authenticator.counter);
  });

  it('accepts the flat assertion shape of the reference clients ({credentialId, clientDataJson, authenticatorData, signature})', async () => {
    const { customerId, authenticator } = await enrolled();
    const id = challengeId();
    const a = authenticator.assert(ceremony(id));
    const flat = { credentialId: a.id, clientDataJson: a.response.clientDataJSON, authenticatorData: a.response.authenticatorData, signature: a.response.signature };
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: flat, origin: ORIGIN }))).toEqual({ ok: true });
  });

  it('refuses a wrong origin, a wrong challenge, a tampered signature, another credential and missing UV', async () => {
    const { customerId, authenticator } = await enrolled();
    const id = challengeId();
    // A page outside the allowed list, whether or not the client claims an allowed origin.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id, 'https://evil.example.com')), origin: 'https://evil.example.com' }))).toMatchObject(failure(/origin/));
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id, 'https://evil.example.com')), origin: ORIGIN }))).toMatchObject(failure(/origin/));
    // The echoed origin must be the one in clientDataJSON.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id)), origin: 'https://other.example.com' }))).toMatchObject(failure(/origin/));
    // Signed for another round.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(challengeId())), origin: ORIGIN }))).toMatchObject(failure(/challenge/));
    // A flipped bit in the signature.
    const tampered = authenticator.assert(ceremony(id));
    const sig = Buffer.from(tampered.response.signature, 'base64url');
    sig[sig.length - 5] ^= 0x01;
    tampered.response.signature = sig.toString('base64url');
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: tampered, origin: ORIGIN }))).toMatchObject({ ok: false, code: 'SCA_AUTHORIZATION_FAILED' });
    // Another authenticator's credential, even a perfectly signed one.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: new SoftwareAuthenticator().assert(ceremony(id)), origin: ORIGIN }))).toMatchObject(failure(/not from the enrolled passkey/));
    // A valid signature over another relying party's id.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert({ ...ceremony(id), rpId: 'evil.com' }), origin: ORIGIN }))).toMatchObject(failure(/RP ID/i));
    // User present but not verified: not a second factor.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id), { flags: WEBAUTHN_FLAGS.UP }), origin: ORIGIN }))).toMatchObject(failure(/verif/));
    // And still fine with the real thing.
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id)), origin: ORIGIN }))).toEqual({ ok: true });
  });

  it('refuses a replayed assertion: a non-increasing counter, or the same challenge answered twice', async () => {
    const { customerId, authenticator } = await enrolled();
    const id = challengeId();
    const assertion = authenticator.assert(ceremony(id));
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: assertion, origin: ORIGIN }))).toEqual({ ok: true });
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: assertion, origin: ORIGIN }))).toMatchObject({ ok: false, code: 'SCA_AUTHORIZATION_FAILED' });
    const next = challengeId();
    const stale = authenticator.assert(ceremony(next), { counter: authenticator.counter }); // a clone that did not count up
    expect(await factors.verify(args(customerId, next, { passkeyAssertion: stale, origin: ORIGIN }))).toMatchObject(failure(/counter/));

    // Without a counter (always 0), the same challenge still cannot be answered twice.
    const { customerId: other, authenticator: counterless } = await enrolled(new SoftwareAuthenticator({ usesCounter: false }));
    const round = challengeId();
    const once = counterless.assert(ceremony(round));
    expect(await factors.verify(args(other, round, { passkeyAssertion: once, origin: ORIGIN }))).toEqual({ ok: true });
    expect(await factors.verify(args(other, round, { passkeyAssertion: once, origin: ORIGIN }))).toMatchObject(failure(/already answered/));
    const later = challengeId();
    expect(await factors.verify(args(other, later, { passkeyAssertion: counterless.assert(ceremony(later)), origin: ORIGIN }))).toEqual({ ok: true });
  });

  it('keeps tenants apart: another platform or mode neither sees nor can use the passkey', async () => {
    const { customerId, authenticator } = await enrolled();
    const id = challengeId();
    const stranger = { platformId: 'Platform:01970000-0000-7000-8000-000000000002', mode: 'SANDBOX' as Mode };
    expect(await factors.availableFactors(stranger.platformId, 'SANDBOX', customerId)).toEqual(['SMS_OTP']);
    // Production offers no SMS_OTP (no SMS provider) and does not see the sandbox passkey: nothing.
    expect(await factors.availableFactors(platform.platformId, 'PRODUCTION', customerId)).toEqual([]);
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id)), origin: ORIGIN }, stranger))).toMatchObject(failure(/no enrolled passkey/));
    await expect(passkeys.get(stranger, { customerId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(passkeys.remove(stranger, { customerId }, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Enrolling the same customer id from another platform cannot take over the stream.
    const { options } = await passkeys.registrationOptions(stranger, { customerId, customerRegion: EU }, now());
    const hijack = new SoftwareAuthenticator().register({ challenge: options.challenge as string, origin: ORIGIN, rpId: RP_ID });
    await expect(passkeys.enrol(stranger, { customerId, customerRegion: EU, registrationResponse: hijack, origin: ORIGIN }, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await factors.verify(args(customerId, id, { passkeyAssertion: authenticator.assert(ceremony(id)), origin: ORIGIN }))).toEqual({ ok: true });
  });

  it('SMS_OTP: the sandbox code 123456 passes, anything else fails; production has no SMS provider (501)', async () => {
    const customerId = newCustomer();
    const sms = (code: string | undefined, mode: Mode = 'SANDBOX') => factors.verify({ ...args(customerId, challengeId(), { code }), mode, factor: 'SMS_OTP' });
    expect(await sms('123456')).toEqual({ ok: true });
    for (const wrong of ['654321', '12345', '1234567', ' 123456', '']) expect(await sms(wrong)).toMatchObject({ ok: false });
    expect(await sms('000000')).toMatchObject({ ok: false, code: 'SCA_AUTHORIZATION_FAILED' });
    expect(await sms(undefined)).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
    expect(await sms('123456', 'PRODUCTION')).toMatchObject({ ok: false, code: 'NOT_IMPLEMENTED' });
    expect(await factors.verify({ ...args(customerId, challengeId(), { code: '123456' }), factor: 'TOTP' })).toMatchObject({ ok: false, code: 'INVALID_INPUT' });
  });

  it('accepts the legacy sandbox signature literal for the enrolled credential in the sandbox only', async () => {
    const { customerId, authenticator } = await enrolled();
    const literal = (id: string) => ({ ...authenticator.assert(ceremony(id)), response: { clientDataJSON: '', authenticatorData: '', signature: 'sandbox-valid-passkey-signature' } });
    expect(await factors.verify(args(customerId, challengeId(), { passkeyAssertion: literal(challengeId()), origin: ORIGIN }))).toEqual({ ok: true });
    const other = { ...literal(challengeId()), id: new SoftwareAuthenticator().id };
    expect(await factors.verify(args(customerId, challengeId(), { passkeyAssertion: { ...other, rawId: other.id }, origin: ORIGIN }))).toMatchObject({ ok: false });
    const prod = { platformId: platform.platformId, mode: 'PRODUCTION' as Mode };
    const { customerId: prodCustomer, authenticator: prodKey } = await enrolled(new SoftwareAuthenticator(), prod);
    const id = challengeId();
    const prodLiteral = { ...prodKey.assert(ceremony(id)), response: { clientDataJSON: '', authenticatorData: '', signature: 'sandbox-valid-passkey-signature' } };
    expect(await factors.verify(args(prodCustomer, id, { passkeyAssertion: prodLiteral, origin: ORIGIN }, prod))).toMatchObject({ ok: false, code: 'SCA_AUTHORIZATION_FAILED' });
  });

  it('answers malformed assertions with a failure, never a throw', async () => {
    const { customerId } = await enrolled();
    for (const passkeyAssertion of [undefined, {}, { id: 'x' }, { response: 'x' }, { id: 1, response: {} }, { credentialId: 'abc', clientDataJson: '!!', authenticatorData: 5, signature: null }]) {
      expect(await factors.verify(args(customerId, challengeId(), { passkeyAssertion: passkeyAssertion as Record<string, unknown>, origin: ORIGIN }))).toMatchObject({ ok: false });
    }
  });
});
