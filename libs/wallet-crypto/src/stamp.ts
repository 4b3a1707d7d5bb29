import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { base64urlnopad } from '@scure/base';
import { keyPairFromPrivateKey, parseP256PublicKey } from './p256-keys';

/** The only scheme of an API-key stamp (`Service-Wallet-Signature`). */
export const STAMP_SCHEME = 'SIGNATURE_SCHEME_TK_API_P256';

export type ParsedStamp = { publicKey: string /* compressed lowercase hex */; signatureDer: Uint8Array };

export type ParseStampResult = { ok: true; stamp: ParsedStamp } | { ok: false; reason: string };

// A real stamp is ~300 characters; anything far larger is not worth decoding.
const MAX_STAMP_LENGTH = 2048;
const STAMP_FIELDS = ['publicKey', 'scheme', 'signature'] as const;
const BASE64_ANY = /^[A-Za-z0-9_+/-]+={0,2}$/;
const COMPRESSED_HEX = /^0[23][0-9a-fA-F]{64}$/;
const EVEN_HEX = /^(?:[0-9a-fA-F]{2})+$/;

const fail = (reason: string): ParseStampResult => ({ ok: false, reason });

/** Decodes the header of a stamp; never throws, the failure names what is wrong. */
export function parseStamp(header: string): ParseStampResult {
  if (typeof header !== 'string' || header.length === 0) return fail('stamp is empty');
  if (header.length > MAX_STAMP_LENGTH) return fail('stamp is too long');
  const bytes = decodeBase64Url(header);
  if (!bytes) return fail('stamp is not base64url');

  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return fail('stamp is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('stamp is not a JSON object');
  const fields = json as Record<string, unknown>;
  for (const name of STAMP_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(fields, name)) return fail(`stamp is missing ${name}`);
    if (typeof fields[name] !== 'string') return fail(`stamp ${name} is not a string`);
  }
  const extra = Object.keys(fields).find((k) => !(STAMP_FIELDS as readonly string[]).includes(k));
  if (extra !== undefined) return fail(`stamp has unexpected field ${extra}`);
  const { publicKey, scheme, signature } = fields as Record<(typeof STAMP_FIELDS)[number], string>;

  if (scheme !== STAMP_SCHEME) return fail(`wrong scheme: expected ${STAMP_SCHEME}`);
  if (!COMPRESSED_HEX.test(publicKey)) return fail('bad public key: not compressed SEC1 P-256 hex');
  const key = parseP256PublicKey(publicKey);
  if (!key) return fail('bad public key: not a point on P-256');
  if (!EVEN_HEX.test(signature)) return fail('signature is not DER hex: not hex');
  const signatureDer = hexToBytes(signature.toLowerCase());
  try {
    p256.Signature.fromBytes(signatureDer, 'der'); // strict DER, r and s in [1, n-1]
  } catch {
    return fail('signature is not DER hex: not an ASN.1 DER ECDSA signature');
  }
  return { ok: true, stamp: { publicKey: key.compressed, signatureDer } };
}

/** ECDSA P-256/SHA-256 over the UTF-8 bytes of `payload` exactly as given; high-S accepted (clients do not normalise). */
export function verifyStamp(stamp: ParsedStamp, payload: string): boolean {
  try {
    return p256.verify(stamp.signatureDer, sha256(new TextEncoder().encode(payload)), hexToBytes(stamp.publicKey), {
      format: 'der',
      lowS: false,
      prehash: false,
    });
  } catch {
    return false;
  }
}

/**
 * The API-key stamp of `payload` by a P-256 private key, as `@turnkey/api-key-stamper` makes it: base64url (no
 * padding) of `{"publicKey","scheme","signature"}`, the signature ECDSA P-256/SHA-256 over the UTF-8 bytes of
 * `payload`, DER hex (low-S). For keys the server holds (delegated keys); clients stamp with their own library.
 */
export function stampPayload(privateKey: Uint8Array, payload: string): string {
  const { publicKeyCompressed } = keyPairFromPrivateKey(privateKey);
  const signature = p256.sign(sha256(new TextEncoder().encode(payload)), privateKey, { prehash: false, lowS: true });
  const json = JSON.stringify({ publicKey: publicKeyCompressed, scheme: STAMP_SCHEME, signature: bytesToHex(signature.toBytes('der')) });
  return base64urlnopad.encode(new TextEncoder().encode(json));
}

// The stamper emits unpadded base64url; standard base64 and padding are tolerated. Non-canonical trailing bits are not.
function decodeBase64Url(text: string): Uint8Array | undefined {
  if (!BASE64_ANY.test(text)) return undefined;
  if (text.includes('=') && text.length % 4 !== 0) return undefined;
  try {
    return base64urlnopad.decode(text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
  } catch {
    return undefined;
  }
}
