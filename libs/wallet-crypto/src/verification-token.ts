import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { hexToBytes } from '@noble/hashes/utils';
import { base64urlnopad } from '@scure/base';
import type { EnclaveSigner } from './enclave-bundles';
import { parseP256PublicKey } from './p256-keys';

// The token travels as `payloadToSign` and comes back stamped; a few KiB is generous.
const MAX_TOKEN_LENGTH = 8192;
const SEGMENT = /^[A-Za-z0-9_-]+$/;
const utf8 = new TextEncoder();

/** Compact JWS, ES256 (raw r‖s), header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims are serialised as given. */
export function signVerificationToken(claims: Record<string, unknown>, signer: EnclaveSigner, kid: string): string {
  const header = encodeJson({ alg: 'ES256', kid, typ: 'JWT' });
  const signingInput = `${header}.${encodeJson(claims)}`;
  const signature = p256.sign(sha256(utf8.encode(signingInput)), signer.privateKey, { prehash: false, lowS: true });
  return `${signingInput}.${base64urlnopad.encode(signature.toBytes('compact'))}`;
}

/**
 * The claims of a token this signer issued, or undefined (bad shape, alg, key or signature). Never throws.
 * Checks no claim: expiry and binding are the caller's, who has the clock.
 */
export function verifyVerificationToken(token: string, signerPublicKeyHex: string): Record<string, unknown> | undefined {
  try {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return undefined;
    const [headerB64, payloadB64, signatureB64] = parts;
    const header = decodeJsonObject(headerB64);
    if (!header || header.alg !== 'ES256' || header.typ !== 'JWT') return undefined;
    const signerKey = parseP256PublicKey(signerPublicKeyHex);
    if (!signerKey) return undefined;
    const signature = base64urlnopad.decode(signatureB64);
    if (signature.length !== 64) return undefined;
    const digest = sha256(utf8.encode(`${headerB64}.${payloadB64}`));
    const valid = p256.verify(signature, digest, hexToBytes(signerKey.uncompressed), {
      format: 'compact',
      prehash: false,
      lowS: false,
    });
    return valid ? decodeJsonObject(payloadB64) : undefined;
  } catch {
    return undefined;
  }
}

function encodeJson(value: unknown): string {
  return base64urlnopad.encode(utf8.encode(JSON.stringify(value)));
}

// Throws on bad base64url or UTF-8 (caught by the caller); undefined for JSON that is not an object.
function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlnopad.decode(segment)));
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
