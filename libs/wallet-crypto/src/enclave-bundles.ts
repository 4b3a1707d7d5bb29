import { p256 } from '@noble/curves/p256';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils';
import { createBase58check } from '@scure/base';
import { hpkeOpen, hpkeSeal } from './hpke';
import { parseP256PublicKey } from './p256-keys';

/** The server's signing key (Turnkey's "enclave quorum" key); clients pin its public key. */
export interface EnclaveSigner {
  privateKey: Uint8Array;
  publicKeyUncompressed: string;
}

export type OpenOtpBundleResult =
  | { ok: true; otpCode: string; publicKey: { compressed: string; uncompressed: string } }
  | { ok: false; reason: 'MALFORMED' | 'UNDECRYPTABLE'; message: string };

const BUNDLE_VERSION = 'v1.0.0';
const MAX_OTP_BUNDLE_LENGTH = 8192;
const MAX_OTP_CODE_LENGTH = 64;
const UNCOMPRESSED_HEX = /^04[0-9a-fA-F]{128}$/;
const EVEN_HEX = /^(?:[0-9a-fA-F]{2})+$/;
const GCM_TAG_BYTES = 16;
const base58check = createBase58check(sha256);
const utf8 = new TextEncoder();

/** `otpEncryptionTargetBundle`: the signed target key `encryptOtpCodeToBundle` seals the OTP to. */
export function otpTargetBundle(targetPublicKeyHex: string, signer: EnclaveSigner): string {
  const target = parseP256PublicKey(targetPublicKeyHex);
  if (!target) throw new Error('otpTargetBundle: target is not a P-256 public key');
  return signedEnvelope({ targetPublic: target.uncompressed }, signer);
}

/** Opens `encryptedOtpBundle` (client input): never throws. */
export async function openOtpBundle(
  encryptedOtpBundle: string,
  targetPrivateKey: Uint8Array,
): Promise<OpenOtpBundleResult> {
  const malformed = (message: string): OpenOtpBundleResult => ({ ok: false, reason: 'MALFORMED', message });
  if (typeof encryptedOtpBundle !== 'string') return malformed('bundle is not a string');
  if (encryptedOtpBundle.length > MAX_OTP_BUNDLE_LENGTH) return malformed('bundle is too long');
  const outer = parseObject(encryptedOtpBundle);
  if (!outer) return malformed('bundle is not a JSON object');
  const { encappedPublic, ciphertext } = outer;
  if (typeof encappedPublic !== 'string' || !UNCOMPRESSED_HEX.test(encappedPublic)) {
    return malformed('encappedPublic is not 130-hex uncompressed');
  }
  if (typeof ciphertext !== 'string' || !EVEN_HEX.test(ciphertext) || ciphertext.length < 2 * GCM_TAG_BYTES) {
    return malformed('ciphertext is not hex of at least the GCM tag');
  }

  let plaintext: Uint8Array;
  try {
    plaintext = await hpkeOpen(targetPrivateKey, hexToBytes(encappedPublic.toLowerCase()), hexToBytes(ciphertext.toLowerCase()));
  } catch {
    return { ok: false, reason: 'UNDECRYPTABLE', message: 'bundle does not decrypt with the target key' };
  }

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    return malformed('plaintext is not UTF-8');
  }
  const inner = parseObject(text);
  if (!inner) return malformed('plaintext is not a JSON object');
  const { otp_code: otpCode, public_key: publicKeyHex } = inner;
  if (typeof otpCode !== 'string' || otpCode.length === 0 || otpCode.length > MAX_OTP_CODE_LENGTH) {
    return malformed('otp_code is missing or not a short string');
  }
  const publicKey = typeof publicKeyHex === 'string' ? parseP256PublicKey(publicKeyHex) : undefined;
  if (!publicKey) return malformed('public_key is not a P-256 public key');
  return { ok: true, otpCode, publicKey };
}

/**
 * `encryptedWalletCredentials`: the mnemonic sealed to the export key, wrapped with the organization id.
 * Without a signer (sandbox) `dataSignature` and `enclaveQuorumPublic` are empty strings.
 */
export async function exportBundle(
  mnemonic: string,
  clientPublicKeyUncompressed: string,
  organizationId: string,
  signer: EnclaveSigner | undefined,
): Promise<string> {
  const sealed = await hpkeSeal(clientPublicKeyUncompressed, utf8.encode(mnemonic));
  return signedEnvelope(
    { encappedPublic: bytesToHex(sealed.encappedPublic), ciphertext: bytesToHex(sealed.ciphertext), organizationId },
    signer,
  );
}

/** Legacy `encryptedSessionSigningKey`: base58check(compressed enc ‖ ciphertext‖tag) of the raw 32-byte scalar. */
export async function legacySessionKeyBundle(
  sessionPrivateKey: Uint8Array,
  clientPublicKeyUncompressed: string,
): Promise<string> {
  if (!p256.utils.isValidSecretKey(sessionPrivateKey)) throw new Error('legacySessionKeyBundle: not a P-256 private key');
  const sealed = await hpkeSeal(clientPublicKeyUncompressed, sessionPrivateKey);
  const compressedEnc = p256.Point.fromBytes(sealed.encappedPublic).toBytes(true);
  return base58check.encode(concatBytes(compressedEnc, sealed.ciphertext));
}

// {version, data, dataSignature, enclaveQuorumPublic}: DER ECDSA-P256-SHA256 over the bytes `data` hex-encodes.
function signedEnvelope(payload: Record<string, string>, signer: EnclaveSigner | undefined): string {
  const data = utf8.encode(JSON.stringify(payload));
  if (!signer) {
    return JSON.stringify({ version: BUNDLE_VERSION, data: bytesToHex(data), dataSignature: '', enclaveQuorumPublic: '' });
  }
  const signature = p256.sign(sha256(data), signer.privateKey, { prehash: false, lowS: true });
  return JSON.stringify({
    version: BUNDLE_VERSION,
    data: bytesToHex(data),
    dataSignature: bytesToHex(signature.toBytes('der')),
    enclaveQuorumPublic: signerPublicKey(signer),
  });
}

// Clients compare enclaveQuorumPublic to their pinned key as a string, so emit the canonical form, and refuse
// a signer whose two halves disagree rather than publish bundles no client can verify.
function signerPublicKey(signer: EnclaveSigner): string {
  const derived = bytesToHex(p256.getPublicKey(signer.privateKey, false));
  if (parseP256PublicKey(signer.publicKeyUncompressed)?.uncompressed !== derived) {
    throw new Error('EnclaveSigner: publicKeyUncompressed does not match privateKey');
  }
  return derived;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
