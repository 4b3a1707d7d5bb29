import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { hexToBytes } from '@noble/hashes/utils';
import { turnkeyCrypto } from '@payments/testing';
import { CompactSign, compactVerify, importJWK, type JWK } from 'jose';
import type { EnclaveSigner } from './enclave-bundles';
import { generateP256KeyPair, type P256KeyPair } from './p256-keys';
import { signVerificationToken, verifyVerificationToken } from './verification-token';

const { verifyOtpVerificationToken } = turnkeyCrypto;

const b64url = (value: string | Uint8Array): string => Buffer.from(value).toString('base64url');
const decodeSegment = (segment: string): unknown => JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));

function jwk(pair: P256KeyPair, withPrivate: boolean): JWK {
  const point = hexToBytes(pair.publicKeyUncompressed);
  return {
    kty: 'EC',
    crv: 'P-256',
    x: b64url(point.subarray(1, 33)),
    y: b64url(point.subarray(33)),
    ...(withPrivate ? { d: b64url(pair.privateKey) } : {}),
  };
}

/** Signs arbitrary header/payload text with the signer key, to build tokens our signer would never issue. */
function handSigned(header: string, payload: string, pair: P256KeyPair): string {
  const input = `${b64url(header)}.${b64url(payload)}`;
  const sig = p256.sign(sha256(new TextEncoder().encode(input)), pair.privateKey, { prehash: false });
  return `${input}.${b64url(sig.toBytes('compact'))}`;
}

// Far-future millisecond epoch (2100-01-01): @turnkey/crypto checks exp against the real clock.
const EXP_MS = '4102444800000';

describe('verification token (ES256 compact JWS)', () => {
  const signerPair = generateP256KeyPair();
  const signer: EnclaveSigner = { privateKey: signerPair.privateKey, publicKeyUncompressed: signerPair.publicKeyUncompressed };
  const tek = generateP256KeyPair();
  const claims = {
    id: 'Verification:0b6f',
    verification_type: 'OTP_TYPE_EMAIL',
    contact: 'ada@example.com',
    public_key: tek.publicKeyCompressed,
    organization_id: 'org-7c1f',
    iat: '1700000000000',
    exp: EXP_MS,
  };

  it('has the documented header, the given claims and a raw 64-byte r‖s signature', () => {
    const token = signVerificationToken(claims, signer, 'turnkey');
    const [header, payload, signature] = token.split('.');
    expect(Buffer.from(header, 'base64url').toString('utf8')).toBe('{"alg":"ES256","kid":"turnkey","typ":"JWT"}');
    expect(decodeSegment(payload)).toEqual(claims);
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('round-trips through verifyVerificationToken with either key encoding', () => {
    const token = signVerificationToken(claims, signer, 'k1');
    expect(verifyVerificationToken(token, signer.publicKeyUncompressed)).toEqual(claims);
    expect(verifyVerificationToken(token, signerPair.publicKeyCompressed)).toEqual(claims);
  });

  it('is accepted by @turnkey/crypto verifyOtpVerificationToken with our signer as the override key', async () => {
    const token = signVerificationToken(claims, signer, 'turnkey');
    await expect(verifyOtpVerificationToken(token, signer.publicKeyUncompressed)).resolves.toEqual(claims);
    await expect(verifyOtpVerificationToken(token, generateP256KeyPair().publicKeyUncompressed)).rejects.toThrow(
      /signature is invalid/,
    );
  });

  it('@turnkey/crypto demands string claims with exp in milliseconds (a caller constraint)', async () => {
    const numericExp = signVerificationToken({ ...claims, exp: Number(EXP_MS) }, signer, 'turnkey');
    await expect(verifyOtpVerificationToken(numericExp, signer.publicKeyUncompressed)).rejects.toThrow(/'exp'/);
    const secondsExp = signVerificationToken({ ...claims, exp: EXP_MS.slice(0, -3) }, signer, 'turnkey');
    await expect(verifyOtpVerificationToken(secondsExp, signer.publicKeyUncompressed)).rejects.toThrow(/expired/);
  });

  it('interoperates with jose both ways', async () => {
    const token = signVerificationToken(claims, signer, 'k1');
    const { payload, protectedHeader } = await compactVerify(token, await importJWK(jwk(signerPair, false), 'ES256'));
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'k1', typ: 'JWT' });
    expect(JSON.parse(Buffer.from(payload).toString('utf8'))).toEqual(claims);

    const joseToken = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'JWT' })
      .sign(await importJWK(jwk(signerPair, true), 'ES256'));
    expect(verifyVerificationToken(joseToken, signer.publicKeyUncompressed)).toEqual(claims);
  });

  describe('rejections (undefined, never a throw)', () => {
    const token = signVerificationToken(claims, signer, 'k1');
    const [header, payload, signature] = token.split('.');

    it('control: the untouched token verifies', () => {
      expect(verifyVerificationToken(token, signer.publicKeyUncompressed)).toEqual(claims);
    });

    it('another key', () => {
      expect(verifyVerificationToken(token, generateP256KeyPair().publicKeyUncompressed)).toBeUndefined();
    });

    it('altered claims under the original signature', () => {
      const forged = `${header}.${b64url(JSON.stringify({ ...claims, public_key: generateP256KeyPair().publicKeyCompressed }))}.${signature}`;
      expect(verifyVerificationToken(forged, signer.publicKeyUncompressed)).toBeUndefined();
    });

    it('altered signature', () => {
      const sig = Buffer.from(signature, 'base64url');
      sig[63] ^= 0x01;
      expect(verifyVerificationToken(`${header}.${payload}.${b64url(sig)}`, signer.publicKeyUncompressed)).toBeUndefined();
      expect(verifyVerificationToken(`${header}.${payload}.${b64url(sig.subarray(0, 63))}`, signer.publicKeyUncompressed)).toBeUndefined();
    });

    it('alg none, other algs and a missing typ, even when validly signed', () => {
      const body = JSON.stringify(claims);
      expect(verifyVerificationToken(`${b64url('{"alg":"none","typ":"JWT"}')}.${b64url(body)}.`, signer.publicKeyUncompressed)).toBeUndefined();
      for (const h of ['{"alg":"HS256","typ":"JWT"}', '{"alg":"ES384","typ":"JWT"}', '{"alg":"ES256"}', '[]']) {
        expect(verifyVerificationToken(handSigned(h, body, signerPair), signer.publicKeyUncompressed)).toBeUndefined();
      }
      // Control: the same hand-signing with the right header verifies.
      expect(verifyVerificationToken(handSigned('{"alg":"ES256","typ":"JWT"}', body, signerPair), signer.publicKeyUncompressed)).toEqual(claims);
    });

    it('a validly signed payload that is not a JSON object', () => {
      for (const body of ['[1,2]', '"claims"', 'null', 'not json']) {
        expect(verifyVerificationToken(handSigned('{"alg":"ES256","typ":"JWT"}', body, signerPair), signer.publicKeyUncompressed)).toBeUndefined();
      }
    });

    it.each([
      ['empty', ''],
      ['two parts', `${header}.${payload}`],
      ['four parts', `${token}.x`],
      ['padding', `${token}=`],
      ['standard base64 characters', token.replace(/-/g, '+').replace(/_/g, '/') + '+'],
      ['oversized', `${header}.${'A'.repeat(10_000)}.${signature}`],
    ])('%s', (_label, bad) => {
      expect(verifyVerificationToken(bad, signer.publicKeyUncompressed)).toBeUndefined();
    });

    it('a bad signer key or non-string input', () => {
      expect(verifyVerificationToken(token, '04ab')).toBeUndefined();
      expect(verifyVerificationToken(token, '')).toBeUndefined();
      expect(verifyVerificationToken(undefined as unknown as string, signer.publicKeyUncompressed)).toBeUndefined();
    });
  });
});
