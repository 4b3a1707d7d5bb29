import { createHash } from 'node:crypto';
import { compactVerify, createRemoteJWKSet, decodeJwt, decodeProtectedHeader } from 'jose';
import type { JWTVerifyGetKey } from 'jose';

/** Issuers whose ID tokens register and authenticate OAUTH credentials (Google spells its issuer both ways). */
export const SUPPORTED_OIDC_ISSUERS = ['https://accounts.google.com', 'accounts.google.com', 'https://appleid.apple.com'] as const;

/** JWKS of each supported issuer, for production signature checks. */
export const OIDC_JWKS_URLS: Readonly<Record<string, string>> = {
  'https://accounts.google.com': 'https://www.googleapis.com/oauth2/v3/certs',
  'accounts.google.com': 'https://www.googleapis.com/oauth2/v3/certs',
  'https://appleid.apple.com': 'https://appleid.apple.com/auth/keys',
};

/** An `iat` older than this is stale: the token must have been minted for this request. */
export const OIDC_MAX_TOKEN_AGE_MS = 60_000;
/** How far in the future an `iat` may lie (the issuer's clock running ahead of ours). */
export const OIDC_CLOCK_SKEW_MS = 5_000;
/** Far above any real ID token (Google's and Apple's are 1–2 KB): bounds the work on hostile input. */
const MAX_TOKEN_LENGTH = 16_384;
/** The issuers sign with RS256; ES256 is accepted for locally generated test keys. Never HMAC or `none`. */
const SIGNATURE_ALGORITHMS = ['RS256', 'ES256'];
const SEGMENT = /^[A-Za-z0-9_-]+$/;

export interface OidcClaims {
  iss: string;
  /** Normalised: a one-element array becomes its element. */
  aud: string;
  sub: string;
  /** Seconds since the epoch, as in the token. */
  iat: number;
  exp: number;
  nonce?: string;
  email?: string;
}

/** The identity an OAUTH credential is registered under, and compared with on every verify. */
export interface OidcIdentity {
  iss: string;
  aud: string;
  sub: string;
}

export type OidcParse = { ok: true; claims: OidcClaims } | { ok: false; message: string };

/** `malformed` is answered 400 INVALID_INPUT, every other reason 401 UNAUTHORIZED. */
export type OidcCheck = 'malformed' | 'signature' | 'iat' | 'exp' | 'iss' | 'aud' | 'sub' | 'nonce';
export type OidcCheckResult = { ok: true; claims: OidcClaims } | { ok: false; malformed: boolean; reason: OidcCheck; message: string };

export interface OidcCheckOptions {
  now: Date;
  mode: 'SANDBOX' | 'PRODUCTION';
  /** The client public key hex exactly as the request sent it: the token's nonce must be its SHA-256. */
  clientPublicKey?: string;
  /** The registered credential's identity (verify / re-auth); absent at registration. */
  expected?: OidcIdentity;
  /** The issuer's signing keys (PRODUCTION): `defaultOidcKeyResolver()` in the service, a local JWKS in tests. */
  keys?: (issuer: string) => JWTVerifyGetKey;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The nonce a token bound to this client key carries: lowercase hex SHA-256 of the hex string's UTF-8 bytes. */
export function oidcNonceFor(clientPublicKeyHex: string): string {
  return createHash('sha256').update(clientPublicKeyHex, 'utf8').digest('hex');
}

export function oidcIdentity(claims: OidcClaims): OidcIdentity {
  return { iss: claims.iss, aud: claims.aud, sub: claims.sub };
}

/** The credential's nickname: the token's email, else its subject. */
export function oidcNickname(claims: OidcClaims): string {
  return claims.email ?? claims.sub;
}

/** Shape and issuer only, no signature or time check: what registration rejects with 400. */
export function parseOidcToken(token: string): OidcParse {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { ok: false, message: 'oidcToken must be a JWT string' };
  const segments = token.split('.');
  if (segments.length !== 3 || !segments.every((s) => SEGMENT.test(s))) return { ok: false, message: 'oidcToken must be three base64url segments' };
  let payload: Record<string, unknown>;
  try {
    decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    return { ok: false, message: 'oidcToken header and payload must be base64url JSON objects' };
  }
  const { iss, sub, iat, exp, nonce, email } = payload;
  const aud = Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud;
  if (!nonEmpty(iss)) return { ok: false, message: 'oidcToken has no iss' };
  if (!nonEmpty(aud)) return { ok: false, message: 'oidcToken aud must be a non-empty string or a one-element array' };
  if (!nonEmpty(sub)) return { ok: false, message: 'oidcToken has no sub' };
  if (!isTime(iat) || !isTime(exp)) return { ok: false, message: 'oidcToken iat and exp must be numbers' };
  if (!(SUPPORTED_OIDC_ISSUERS as readonly string[]).includes(iss)) {
    return { ok: false, message: `oidcToken issuer is not supported: use one of ${SUPPORTED_OIDC_ISSUERS.join(', ')}` };
  }
  return {
    ok: true,
    claims: {
      iss, aud, sub, iat, exp,
      // A non-string nonce is kept out, so the nonce check fails on it instead of comparing garbage.
      ...(typeof nonce === 'string' ? { nonce } : {}),
      ...(typeof email === 'string' && email !== '' ? { email } : {}),
    },
  };
}

/**
 * The checks of a verify / re-auth: shape, then (PRODUCTION) signature, then iat, exp, iss, aud, sub, nonce.
 * The signature goes before the claim comparisons so that a forged token learns nothing about the registered
 * identity (a `sub` failure would otherwise confirm a guessed iss/aud).
 */
export async function checkOidcToken(token: string, options: OidcCheckOptions): Promise<OidcCheckResult> {
  const parsed = parseOidcToken(token);
  if (!parsed.ok) return { ok: false, malformed: true, reason: 'malformed', message: parsed.message };
  const { claims } = parsed;
  const fail = (reason: Exclude<OidcCheck, 'malformed'>, message: string): OidcCheckResult => ({ ok: false, malformed: false, reason, message });

  if (options.mode !== 'SANDBOX') {
    if (!options.keys) return fail('signature', 'no key resolver for the issuer: the signature cannot be checked');
    if (!(await signatureVerifies(token, claims.iss, options.keys))) return fail('signature', 'the token signature does not verify against the issuer keys');
  }
  const now = options.now.getTime();
  const issuedAt = claims.iat * 1000;
  if (now - issuedAt >= OIDC_MAX_TOKEN_AGE_MS) return fail('iat', 'the token was issued 60 s or more ago: get a fresh one');
  if (issuedAt - now > OIDC_CLOCK_SKEW_MS) return fail('iat', 'the token is issued in the future');
  if (claims.exp * 1000 <= now) return fail('exp', 'the token has expired');
  const { expected } = options;
  if (expected) {
    if (claims.iss !== expected.iss) return fail('iss', 'the token issuer is not the credential’s');
    if (claims.aud !== expected.aud) return fail('aud', 'the token audience is not the credential’s');
    if (claims.sub !== expected.sub) return fail('sub', 'the token subject is not the credential’s');
  }
  if (options.clientPublicKey !== undefined && claims.nonce !== oidcNonceFor(options.clientPublicKey)) {
    return fail('nonce', 'the token nonce is not the SHA-256 of the client public key');
  }
  return { ok: true, claims };
}

/** Signature only: jose's own claim checks read the real clock, and ours take `now`. */
async function signatureVerifies(token: string, issuer: string, keys: (issuer: string) => JWTVerifyGetKey): Promise<boolean> {
  try {
    const getKey = keys(issuer);
    await compactVerify(
      token,
      (header, input) => {
        // A JWT payload is always base64url-encoded (RFC 7797 `b64: false` is for other JWSs): refuse, as jwtVerify does.
        if (header.b64 === false) throw new Error('unencoded payload');
        return getKey({ ...header, b64: undefined }, input);
      },
      { algorithms: SIGNATURE_ALGORITHMS },
    );
    return true;
  } catch {
    // Wrong key, unknown kid, bad signature bytes, unreachable JWKS: all fail closed.
    return false;
  }
}

const remoteKeySets = new Map<string, JWTVerifyGetKey>();

/**
 * Production keys: the issuers' published JWKS, fetched on first use and cached (jose refetches on an unknown `kid`,
 * at most every 30 s). One set per URL, so both spellings of Google share it.
 */
export function defaultOidcKeyResolver(): (issuer: string) => JWTVerifyGetKey {
  return (issuer) => {
    const url = Object.hasOwn(OIDC_JWKS_URLS, issuer) ? OIDC_JWKS_URLS[issuer] : undefined;
    if (!url) throw new Error(`no JWKS for issuer ${issuer}`);
    let keySet = remoteKeySets.get(url);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(url));
      remoteKeySets.set(url, keySet);
    }
    return keySet;
  };
}
