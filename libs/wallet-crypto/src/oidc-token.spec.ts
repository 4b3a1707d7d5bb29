import { CompactSign, createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { JWK, JWTVerifyGetKey, KeyLike } from 'jose';
import { checkOidcToken, defaultOidcKeyResolver, oidcIdentity, oidcNickname, oidcNonceFor, parseOidcToken, SUPPORTED_OIDC_ISSUERS } from './oidc-token';
import type { OidcCheckOptions } from './oidc-token';

const NOW = new Date('2025-06-01T12:00:00Z');
const NOW_S = NOW.getTime() / 1000;
const CLIENT_KEY = '02a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const GOOGLE = 'https://accounts.google.com';
const AUD = '1234-abc.apps.googleusercontent.com';
const SUB = '110169484474386276334';
const EXPECTED = { iss: GOOGLE, aud: AUD, sub: SUB };

const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const claims = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  iss: GOOGLE, aud: AUD, sub: SUB, iat: NOW_S - 10, exp: NOW_S + 3600, nonce: oidcNonceFor(CLIENT_KEY), email: 'ada@example.com', ...overrides,
});
/** A token as the sandbox accepts it: real header and payload, a placeholder signature. */
const dummy = (payload: Record<string, unknown> = claims()) => `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(payload)}.dummy-signature`;

interface SigningKey { privateKey: KeyLike; jwk: JWK; alg: 'ES256' | 'RS256' }
async function signingKey(alg: 'ES256' | 'RS256', kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg);
  return { privateKey, alg, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}
const sign = (key: SigningKey, payload: Record<string, unknown> = claims()) =>
  new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: key.jwk.kid, typ: 'JWT' }).sign(key.privateKey);

describe('oidcNonceFor', () => {
  it('is the lowercase hex SHA-256 of the UTF-8 string', () => {
    expect(oidcNonceFor('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('parseOidcToken', () => {
  it('reads the claims, normalising a one-element aud array', () => {
    const parsed = parseOidcToken(dummy(claims({ aud: [AUD] })));
    expect(parsed).toEqual({ ok: true, claims: { iss: GOOGLE, aud: AUD, sub: SUB, iat: NOW_S - 10, exp: NOW_S + 3600, nonce: oidcNonceFor(CLIENT_KEY), email: 'ada@example.com' } });
  });

  it.each(SUPPORTED_OIDC_ISSUERS)('accepts the issuer %s', (iss) => {
    expect(parseOidcToken(dummy(claims({ iss }))).ok).toBe(true);
  });

  it('rejects an unsupported issuer', () => {
    const parsed = parseOidcToken(dummy(claims({ iss: 'https://login.microsoftonline.com/common/v2.0' })));
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('issuer is not supported') });
    expect(parseOidcToken(dummy(claims({ iss: 'https://accounts.google.com/' }))).ok).toBe(false);
  });

  const header = b64({ alg: 'RS256' });
  it.each([
    ['two segments', `${header}.${b64(claims())}`],
    ['four segments', `${dummy()}.more`],
    ['an empty signature segment', `${header}.${b64(claims())}.`],
    ['padding in a segment', `${header}.${b64(claims())}=.sig`],
    ['a non-base64url character', `${header}.${b64(claims())}.si+g`],
    ['a payload that is not JSON', `${header}.${b64('not json')}.sig`],
    ['a payload that is a JSON array', `${header}.${b64([1, 2])}.sig`],
    ['a header that is not JSON', `${b64('nope')}.${b64(claims())}.sig`],
    ['an empty string', ''],
    ['an oversized token', `${header}.${b64({ ...claims(), pad: 'x'.repeat(20_000) })}.sig`],
  ])('rejects %s', (_label, token) => {
    expect(parseOidcToken(token).ok).toBe(false);
  });

  it.each([
    ['no iss', { iss: undefined }],
    ['an empty iss', { iss: '' }],
    ['no aud', { aud: undefined }],
    ['an empty aud', { aud: '' }],
    ['an empty aud array', { aud: [] }],
    ['a two-element aud array', { aud: [AUD, 'other'] }],
    ['no sub', { sub: undefined }],
    ['an empty sub', { sub: '' }],
    ['a string iat', { iat: String(NOW_S) }],
    ['no iat', { iat: undefined }],
    ['a string exp', { exp: String(NOW_S + 60) }],
    ['no exp', { exp: undefined }],
  ])('rejects %s', (_label, overrides) => {
    expect(parseOidcToken(dummy(claims(overrides))).ok).toBe(false);
  });

  it('rejects a value that is not a string without throwing', () => {
    expect(parseOidcToken(42 as unknown as string).ok).toBe(false);
    expect(parseOidcToken(undefined as unknown as string).ok).toBe(false);
  });
});

describe('oidcIdentity / oidcNickname', () => {
  it('names the credential by email, else by subject', () => {
    const withEmail = parseOidcToken(dummy());
    const withoutEmail = parseOidcToken(dummy(claims({ email: undefined })));
    if (!withEmail.ok || !withoutEmail.ok) throw new Error('fixture');
    expect(oidcIdentity(withEmail.claims)).toEqual(EXPECTED);
    expect(oidcNickname(withEmail.claims)).toBe('ada@example.com');
    expect(oidcNickname(withoutEmail.claims)).toBe(SUB);
  });
});

describe('checkOidcToken (SANDBOX: no signature check)', () => {
  const sandbox: OidcCheckOptions = { now: NOW, mode: 'SANDBOX', clientPublicKey: CLIENT_KEY, expected: EXPECTED };
  const reasonOf = async (payload: Record<string, unknown>, options: Partial<OidcCheckOptions> = {}) => {
    const result = await checkOidcToken(dummy(payload), { ...sandbox, ...options });
    return result.ok ? 'ok' : result.reason;
  };

  it('accepts a dummy-signature token that passes every claim check', async () => {
    await expect(checkOidcToken(dummy(), sandbox)).resolves.toEqual({ ok: true, claims: expect.objectContaining({ sub: SUB, aud: AUD }) });
  });

  it('answers a malformed token or an unsupported issuer as malformed', async () => {
    await expect(checkOidcToken('a.b', sandbox)).resolves.toEqual({ ok: false, malformed: true, reason: 'malformed', message: expect.any(String) });
    await expect(checkOidcToken(dummy(claims({ iss: 'https://evil.example' })), sandbox)).resolves.toMatchObject({ ok: false, malformed: true });
  });

  it('iat: fails at 60 s old, passes just under', async () => {
    expect(await reasonOf(claims({ iat: NOW_S - 60 }))).toBe('iat');
    expect(await reasonOf(claims({ iat: NOW_S - 59.9 }))).toBe('ok');
  });

  it('iat: tolerates 5 s in the future, fails beyond', async () => {
    expect(await reasonOf(claims({ iat: NOW_S + 5 }))).toBe('ok');
    expect(await reasonOf(claims({ iat: NOW_S + 6 }))).toBe('iat');
  });

  it('exp: fails once reached', async () => {
    expect(await reasonOf(claims({ exp: NOW_S }))).toBe('exp');
    expect(await reasonOf(claims({ exp: NOW_S - 1 }))).toBe('exp');
    expect(await reasonOf(claims({ exp: NOW_S + 1 }))).toBe('ok');
  });

  it('iss / aud / sub must be the registered credential’s', async () => {
    expect(await reasonOf(claims({ iss: 'accounts.google.com' }))).toBe('iss');
    expect(await reasonOf(claims({ aud: 'other.apps.googleusercontent.com' }))).toBe('aud');
    expect(await reasonOf(claims({ aud: ['other.apps.googleusercontent.com'] }))).toBe('aud');
    expect(await reasonOf(claims({ sub: '999' }))).toBe('sub');
  });

  it('does not compare the identity when no credential is expected (registration)', async () => {
    expect(await reasonOf(claims({ sub: '999', aud: 'other' }), { expected: undefined })).toBe('ok');
  });

  it('nonce: must be the lowercase hex SHA-256 of the client key exactly as sent', async () => {
    expect(await reasonOf(claims({ nonce: oidcNonceFor('02' + 'ff'.repeat(32)) }))).toBe('nonce');
    expect(await reasonOf(claims({ nonce: oidcNonceFor(CLIENT_KEY.toUpperCase()) }))).toBe('nonce');
    expect(await reasonOf(claims({ nonce: oidcNonceFor(CLIENT_KEY).toUpperCase() }))).toBe('nonce');
    expect(await reasonOf(claims({ nonce: undefined }))).toBe('nonce');
    expect(await reasonOf(claims({ nonce: 42 }))).toBe('nonce');
    // The key as sent in upper case: the nonce follows the sent string, not a normalised key.
    expect(await reasonOf(claims({ nonce: oidcNonceFor(CLIENT_KEY.toUpperCase()) }), { clientPublicKey: CLIENT_KEY.toUpperCase() })).toBe('ok');
  });

  it('does not check the nonce when no client key is given', async () => {
    expect(await reasonOf(claims({ nonce: undefined }), { clientPublicKey: undefined })).toBe('ok');
  });

  it('checks in order: iat, exp, iss, aud, sub, nonce', async () => {
    const allWrong = { iat: NOW_S - 7200, exp: NOW_S - 3600, iss: 'accounts.google.com', aud: 'x', sub: 'y', nonce: 'z' };
    expect(await reasonOf(claims(allWrong))).toBe('iat');
    expect(await reasonOf(claims({ ...allWrong, iat: NOW_S }))).toBe('exp');
    expect(await reasonOf(claims({ ...allWrong, iat: NOW_S, exp: NOW_S + 60 }))).toBe('iss');
    expect(await reasonOf(claims({ ...allWrong, iat: NOW_S, exp: NOW_S + 60, iss: GOOGLE }))).toBe('aud');
    expect(await reasonOf(claims({ ...allWrong, iat: NOW_S, exp: NOW_S + 60, iss: GOOGLE, aud: AUD }))).toBe('sub');
    expect(await reasonOf(claims({ ...allWrong, iat: NOW_S, exp: NOW_S + 60, iss: GOOGLE, aud: AUD, sub: SUB }))).toBe('nonce');
  });
});

describe('checkOidcToken (PRODUCTION: signature against the issuer JWKS)', () => {
  let es256: SigningKey;
  let rs256: SigningKey;
  let impostor: SigningKey;
  let keys: jest.Mock<JWTVerifyGetKey, [string]>;
  let production: OidcCheckOptions;

  beforeAll(async () => {
    es256 = await signingKey('ES256', 'google-es');
    rs256 = await signingKey('RS256', 'google-rs');
    // Same kid as the published ES256 key: the JWKS hands out the real key, and the signature must not verify.
    impostor = await signingKey('ES256', 'google-es');
    const jwks = createLocalJWKSet({ keys: [es256.jwk, rs256.jwk] });
    keys = jest.fn((_issuer: string) => jwks);
    production = { now: NOW, mode: 'PRODUCTION', clientPublicKey: CLIENT_KEY, expected: EXPECTED, keys };
  });

  it('accepts a token signed by a published key (ES256 and RS256), asking the resolver for the token issuer', async () => {
    await expect(checkOidcToken(await sign(es256), production)).resolves.toMatchObject({ ok: true });
    await expect(checkOidcToken(await sign(rs256), production)).resolves.toMatchObject({ ok: true });
    expect(keys).toHaveBeenCalledWith(GOOGLE);
  });

  it('rejects a token signed by another key, a dummy signature and a tampered payload as signature', async () => {
    const reasonOf = async (token: string) => {
      const result = await checkOidcToken(token, production);
      return result.ok ? 'ok' : result.reason;
    };
    expect(await reasonOf(await sign(impostor))).toBe('signature');
    expect(await reasonOf(dummy())).toBe('signature');
    const [header, , signature] = (await sign(es256)).split('.');
    expect(await reasonOf(`${header}.${b64(claims({ sub: 'someone-else' }))}.${signature}`)).toBe('signature');
  });

  it('checks the signature before the claims, so a forged token learns nothing of the registered identity', async () => {
    await expect(checkOidcToken(await sign(impostor, claims({ sub: 'guess' })), production)).resolves.toMatchObject({ reason: 'signature' });
    await expect(checkOidcToken(await sign(es256, claims({ sub: 'guess' })), production)).resolves.toMatchObject({ reason: 'sub' });
  });

  it('still applies the claim checks to a well-signed token', async () => {
    await expect(checkOidcToken(await sign(es256, claims({ exp: NOW_S - 1 })), production)).resolves.toMatchObject({ ok: false, malformed: false, reason: 'exp' });
  });

  it('accepts RS256 and ES256 only, even when the published key would fit another algorithm', async () => {
    const { privateKey, publicKey } = await generateKeyPair('PS256');
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'no-alg' }] }); // JWKs may omit alg
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'PS256', kid: 'no-alg' }).sign(privateKey);
    await expect(checkOidcToken(token, { ...production, keys: () => jwks })).resolves.toMatchObject({ reason: 'signature' });
  });

  it('refuses an unencoded-payload JWS (b64: false) even when the key signed it', async () => {
    const payload = b64(claims());
    const detached = await new CompactSign(new TextEncoder().encode(payload))
      .setProtectedHeader({ alg: 'ES256', kid: es256.jwk.kid, b64: false, crit: ['b64'] })
      .sign(es256.privateKey);
    const [header, , signature] = detached.split('.');
    await expect(checkOidcToken(`${header}.${payload}.${signature}`, production)).resolves.toMatchObject({ reason: 'signature' });
  });

  it('fails closed without a key resolver, or when the resolver throws', async () => {
    const token = await sign(es256);
    await expect(checkOidcToken(token, { ...production, keys: undefined })).resolves.toMatchObject({ reason: 'signature' });
    const broken = () => {
      throw new Error('no keys');
    };
    await expect(checkOidcToken(token, { ...production, keys: broken })).resolves.toMatchObject({ reason: 'signature' });
  });
});

describe('defaultOidcKeyResolver', () => {
  it('shares one remote key set per JWKS URL and knows no other issuer (nothing is fetched until a verify)', () => {
    const resolve = defaultOidcKeyResolver();
    expect(resolve('https://accounts.google.com')).toBe(resolve('accounts.google.com'));
    expect(resolve('https://appleid.apple.com')).not.toBe(resolve('accounts.google.com'));
    expect(defaultOidcKeyResolver()('https://appleid.apple.com')).toBe(resolve('https://appleid.apple.com'));
    expect(() => resolve('https://evil.example')).toThrow();
    expect(() => resolve('constructor')).toThrow();
  });
});
