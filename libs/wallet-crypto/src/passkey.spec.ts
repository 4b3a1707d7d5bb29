import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { decodeAttestationObject, decodeCredentialPublicKey, isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import { SoftwareAuthenticator, WEBAUTHN_FLAGS } from '@payments/testing';
import { passkeyChallengeFor, verifyPasskeyAssertion, verifyPasskeyRegistration, webauthnChallengeOf } from './passkey';
import type { PasskeyAssertion, PasskeyAttestation, RegisteredPasskey } from './passkey';

const RP_ID = 'wallet.example.com';
const ORIGIN = 'https://wallet.example.com';
const ORIGINS = [ORIGIN, 'https://app.example.com'];
const SESSION_BODY = '{"type":"PASSKEY","credentialId":"cred","clientPublicKey":"02ab","expiresInSeconds":900}';

type Registration = ReturnType<SoftwareAuthenticator['register']>;
type Assertion = ReturnType<SoftwareAuthenticator['assert']>;
/** The browser's JSON onto our body shapes (`clientDataJSON` → `clientDataJson`, flattened). */
const toAttestation = (r: Registration): PasskeyAttestation => ({
  credentialId: r.id, clientDataJson: r.response.clientDataJSON, attestationObject: r.response.attestationObject, transports: r.response.transports,
});
const toAssertion = (a: Assertion): PasskeyAssertion => ({
  credentialId: a.id, clientDataJson: a.response.clientDataJSON, authenticatorData: a.response.authenticatorData, signature: a.response.signature,
});
/** clientDataJSON with one field changed (registration signs nothing over it with fmt none). */
const editClientData = (clientDataJson: string, changes: Record<string, unknown>) =>
  isoBase64URL.fromUTF8String(JSON.stringify({ ...JSON.parse(isoBase64URL.toUTF8String(clientDataJson)), ...changes }));

describe('passkeyChallengeFor / webauthnChallengeOf', () => {
  it('hashes the session body to lowercase hex, and the WebAuthn challenge is base64url of that hex text', () => {
    expect(passkeyChallengeFor('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(webauthnChallengeOf('ba78')).toBe(Buffer.from('ba78', 'utf8').toString('base64url'));
    expect(Buffer.from(webauthnChallengeOf(passkeyChallengeFor(SESSION_BODY)), 'base64url').toString('utf8')).toBe(passkeyChallengeFor(SESSION_BODY));
  });
});

describe('verifyPasskeyRegistration', () => {
  const challenge = randomBytes(32).toString('base64url');
  const ceremony = { challenge, origin: ORIGIN, rpId: RP_ID };
  const register = (attestation: PasskeyAttestation, overrides: Partial<{ challenge: string; origins: string[]; rpId: string }> = {}) =>
    verifyPasskeyRegistration({ challenge, attestation, origins: ORIGINS, rpId: RP_ID, ...overrides });
  const reasonOf = async (...args: Parameters<typeof register>) => {
    const result = await register(...args);
    return result.ok ? 'ok' : result.reason;
  };

  it('verifies a none attestation and returns the credential to store', async () => {
    const authenticator = new SoftwareAuthenticator();
    const result = await register(toAttestation(authenticator.register(ceremony)));
    if (!result.ok) throw new Error(result.message);
    expect(result.credential).toEqual({ credentialId: authenticator.id, publicKey: expect.any(String), counter: 1, transports: ['internal'] });
    // The stored key is the COSE_Key itself: EC2 / ES256.
    expect(decodeCredentialPublicKey(isoBase64URL.toBuffer(result.credential.publicKey)).get(3)).toBe(-7);
  });

  it('challenge: the body challenge must be the one inside clientDataJSON', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    expect(await reasonOf(attestation, { challenge: randomBytes(32).toString('base64url') })).toBe('challenge');
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register({ ...ceremony, challenge: 'other' })))).toBe('challenge');
  });

  it('type: clientDataJSON must be webauthn.create', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    expect(await reasonOf({ ...attestation, clientDataJson: editClientData(attestation.clientDataJson, { type: 'webauthn.get' }) })).toBe('type');
  });

  it('origin: must be an allowed origin', async () => {
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register({ ...ceremony, origin: 'https://evil.example' })))).toBe('origin');
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register(ceremony)), { origins: ['https://app.example.com'] })).toBe('origin');
  });

  it('rpId: the RP ID hash must be ours', async () => {
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register({ ...ceremony, rpId: 'evil.example' })))).toBe('rpId');
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register(ceremony)), { rpId: 'example.com' })).toBe('rpId');
  });

  it('userPresence: UP must be set; UV alone is not enough, and UP without UV suffices', async () => {
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register(ceremony, WEBAUTHN_FLAGS.UV)))).toBe('userPresence');
    expect(await reasonOf(toAttestation(new SoftwareAuthenticator().register(ceremony, WEBAUTHN_FLAGS.UP)))).toBe('ok');
  });

  it('attestation: a none statement that is not empty does not verify', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    const decoded = decodeAttestationObject(isoBase64URL.toBuffer(attestation.attestationObject));
    const forged = isoCBOR.encode(new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
      ['fmt', 'none'], ['attStmt', new Map([['sig', new Uint8Array([1, 2, 3])]])], ['authData', decoded.get('authData')],
    ]));
    expect(await reasonOf({ ...attestation, attestationObject: isoBase64URL.fromBuffer(forged) })).toBe('attestation');
  });

  it('attestation: a packed self-attestation signed by another key does not verify', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    const authData = decodeAttestationObject(isoBase64URL.toBuffer(attestation.attestationObject)).get('authData');
    const clientDataHash = createHash('sha256').update(isoBase64URL.toBuffer(attestation.clientDataJson)).digest();
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const sig = sign('sha256', Buffer.concat([authData, clientDataHash]), stranger);
    const packed = isoCBOR.encode(new Map<string, Parameters<typeof isoCBOR.encode>[0]>([
      ['fmt', 'packed'], ['attStmt', new Map<string, number | Uint8Array>([['alg', -7], ['sig', new Uint8Array(sig)]])], ['authData', authData],
    ]));
    expect(await reasonOf({ ...attestation, attestationObject: isoBase64URL.fromBuffer(packed) })).toBe('attestation');
  });

  it('credentialId: the body id must be the attested credential id', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    expect(await reasonOf({ ...attestation, credentialId: new SoftwareAuthenticator().id })).toBe('credentialId');
  });

  it('keeps only known transports, and ignores a transports value that is not a list', async () => {
    const attestation = toAttestation(new SoftwareAuthenticator().register(ceremony));
    const mixed = ['internal', 'carrier-pigeon', 7, 'hybrid'] as string[];
    await expect(register({ ...attestation, transports: mixed })).resolves.toMatchObject({ ok: true, credential: { transports: ['internal', 'hybrid'] } });
    await expect(register({ ...attestation, transports: 'usb' as unknown as string[] })).resolves.toMatchObject({ ok: true, credential: { transports: [] } });
  });

  it('answers garbage with a failure instead of throwing', async () => {
    const good = toAttestation(new SoftwareAuthenticator().register(ceremony));
    const garbage: unknown[] = [
      { ...good, clientDataJson: '%%%not-base64%%%' },
      { ...good, clientDataJson: isoBase64URL.fromUTF8String('not json') },
      { ...good, clientDataJson: isoBase64URL.fromUTF8String('null') },
      { ...good, attestationObject: 'AAAA' },
      { ...good, attestationObject: '!!!' },
      { ...good, credentialId: 42 },
      { ...good, credentialId: '' },
      null,
      'attestation',
    ];
    for (const attestation of garbage) {
      await expect(register(attestation as PasskeyAttestation)).resolves.toMatchObject({ ok: false });
    }
    await expect(register(good, { challenge: undefined as unknown as string })).resolves.toMatchObject({ ok: false, reason: 'input' });
  });
});

describe('verifyPasskeyAssertion', () => {
  const challengeHex = passkeyChallengeFor(SESSION_BODY);
  const ceremony = { challenge: webauthnChallengeOf(challengeHex), origin: ORIGIN, rpId: RP_ID };
  let authenticator: SoftwareAuthenticator;
  let credential: RegisteredPasskey;

  async function enrol(device: SoftwareAuthenticator): Promise<RegisteredPasskey> {
    const challenge = randomBytes(16).toString('base64url');
    const result = await verifyPasskeyRegistration({ challenge, attestation: toAttestation(device.register({ ...ceremony, challenge })), origins: ORIGINS, rpId: RP_ID });
    if (!result.ok) throw new Error(result.message);
    return result.credential;
  }
  const verify = (assertion: PasskeyAssertion, overrides: Partial<{ credential: RegisteredPasskey; challengeHex: string; origins: string[]; rpId: string }> = {}) =>
    verifyPasskeyAssertion({ assertion, credential, challengeHex, origins: ORIGINS, rpId: RP_ID, ...overrides });
  const reasonOf = async (...args: Parameters<typeof verify>) => {
    const result = await verify(...args);
    return result.ok ? 'ok' : result.reason;
  };

  beforeEach(async () => {
    authenticator = new SoftwareAuthenticator();
    credential = await enrol(authenticator);
  });

  it('verifies an assertion over the session challenge and returns the new counter', async () => {
    await expect(verify(toAssertion(authenticator.assert(ceremony)))).resolves.toEqual({ ok: true, newCounter: 2 });
    await expect(verify({ ...toAssertion(authenticator.assert(ceremony)), userHandle: isoBase64URL.fromUTF8String('user-1') })).resolves.toMatchObject({ ok: true });
  });

  it('challenge: an assertion over another session body, or over the raw digest bytes, fails', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony)), { challengeHex: passkeyChallengeFor(SESSION_BODY + ' ') })).toBe('challenge');
    const rawDigest = Buffer.from(challengeHex, 'hex').toString('base64url');
    expect(await reasonOf(toAssertion(authenticator.assert({ ...ceremony, challenge: rawDigest })))).toBe('challenge');
  });

  it('type: clientDataJSON must be webauthn.get', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { type: 'webauthn.create' })))).toBe('type');
  });

  it('origin: must be an allowed origin', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert({ ...ceremony, origin: 'https://evil.example' })))).toBe('origin');
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony)), { origins: ['https://app.example.com'] })).toBe('origin');
  });

  it('rpId: the RP ID hash must be ours', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert({ ...ceremony, rpId: 'evil.example' })))).toBe('rpId');
  });

  it('userPresence: UP must be set, UV is not required', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { flags: WEBAUTHN_FLAGS.UV })))).toBe('userPresence');
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { flags: WEBAUTHN_FLAGS.UP })))).toBe('ok');
  });

  it('credentialId: the assertion must name the registered credential', async () => {
    const assertion = toAssertion(authenticator.assert(ceremony));
    expect(await reasonOf({ ...assertion, credentialId: new SoftwareAuthenticator().id })).toBe('credentialId');
  });

  it('signature: by another key, or with a flipped byte, fails', async () => {
    const other = new SoftwareAuthenticator();
    other.counter = 10; // ahead of the stored counter, so only the key is wrong
    expect(await reasonOf({ ...toAssertion(other.assert(ceremony)), credentialId: authenticator.id })).toBe('signature');

    const assertion = toAssertion(authenticator.assert(ceremony));
    const signature = isoBase64URL.toBuffer(assertion.signature);
    signature[signature.length - 1] ^= 0x01;
    expect(await reasonOf({ ...assertion, signature: isoBase64URL.fromBuffer(signature) })).toBe('signature');
    const truncated = isoBase64URL.fromBuffer(isoBase64URL.toBuffer(assertion.signature).subarray(0, 20));
    expect(await reasonOf({ ...assertion, signature: truncated })).toBe('signature');
    // Signed data covers the authenticator data: raise UV after signing.
    const authData = isoBase64URL.toBuffer(assertion.authenticatorData);
    authData[32] ^= WEBAUTHN_FLAGS.UV;
    expect(await reasonOf({ ...assertion, authenticatorData: isoBase64URL.fromBuffer(authData) })).toBe('signature');
    expect(await reasonOf(assertion)).toBe('ok');
  });

  it('counter: must increase when either side is non-zero', async () => {
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { counter: 1 })))).toBe('counter');
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { counter: 0 })))).toBe('counter');
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { counter: 5 })), { credential: { ...credential, counter: 9 } })).toBe('counter');
    expect(await reasonOf(toAssertion(authenticator.assert(ceremony, { counter: 5 })))).toBe('ok');
  });

  it('counter: an authenticator that keeps none (0 on both sides) passes, and a later non-zero counter is an increase', async () => {
    const counterless = new SoftwareAuthenticator({ usesCounter: false });
    const stored = await enrol(counterless);
    expect(stored.counter).toBe(0);
    await expect(verify(toAssertion(counterless.assert(ceremony)), { credential: stored })).resolves.toEqual({ ok: true, newCounter: 0 });
    await expect(verify(toAssertion(counterless.assert(ceremony)), { credential: stored })).resolves.toEqual({ ok: true, newCounter: 0 });
    await expect(verify(toAssertion(counterless.assert(ceremony, { counter: 3 })), { credential: stored })).resolves.toEqual({ ok: true, newCounter: 3 });
  });

  it('answers garbage with a failure instead of throwing', async () => {
    const good = toAssertion(authenticator.assert(ceremony));
    const garbage: unknown[] = [
      { ...good, clientDataJson: '%%%' },
      { ...good, clientDataJson: isoBase64URL.fromUTF8String('[]') },
      { ...good, authenticatorData: '!!!not base64!!!' },
      { ...good, authenticatorData: 'AAAA' },
      { ...good, signature: '%%%' },
      { ...good, signature: 'AAAA' },
      { ...good, userHandle: 12 },
      { ...good, signature: undefined },
      undefined,
      [],
    ];
    for (const assertion of garbage) {
      await expect(verify(assertion as PasskeyAssertion)).resolves.toMatchObject({ ok: false });
    }
    await expect(verify(good, { credential: { ...credential, publicKey: 'not-a-cose-key' } })).resolves.toMatchObject({ ok: false, reason: 'signature' });
  });
});
