import { p256 } from '@noble/curves/p256';

/** A P-256 key pair; public keys as lowercase SEC1 hex. */
export interface P256KeyPair {
  privateKey: Uint8Array;
  publicKeyCompressed: string;
  publicKeyUncompressed: string;
}

/** Accepted `clientPublicKey` encodings: compressed (02/03, 66 hex) or uncompressed (04, 130 hex). */
export const CLIENT_PUBLIC_KEY_PATTERN = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;

export function generateP256KeyPair(): P256KeyPair {
  return keyPairFromPrivateKey(p256.utils.randomSecretKey());
}

/** Throws on a scalar outside [1, n-1]: private keys are ours, never client input. */
export function keyPairFromPrivateKey(privateKey: Uint8Array): P256KeyPair {
  const point = p256.Point.fromHex(p256.getPublicKey(privateKey, false));
  return {
    privateKey: Uint8Array.from(privateKey),
    publicKeyCompressed: point.toHex(true),
    publicKeyUncompressed: point.toHex(false),
  };
}

/** Both encodings of a P-256 public key, or undefined for anything that is not a point on the curve. */
export function parseP256PublicKey(hex: string): { compressed: string; uncompressed: string } | undefined {
  if (typeof hex !== 'string' || !CLIENT_PUBLIC_KEY_PATTERN.test(hex)) return undefined;
  try {
    const point = p256.Point.fromHex(hex.toLowerCase()); // validates the point is on the curve
    return { compressed: point.toHex(true), uncompressed: point.toHex(false) };
  } catch {
    return undefined;
  }
}

/** True for a valid compressed (02/03) point: the client-held-key flow. */
export function isCompressedPublicKey(hex: string): boolean {
  return typeof hex === 'string' && hex.length === 66 && parseP256PublicKey(hex) !== undefined;
}

/** Compares as curve points, so a compressed and an uncompressed encoding of one key are equal. */
export function samePublicKey(a: string, b: string): boolean {
  const pa = parseP256PublicKey(a);
  const pb = parseP256PublicKey(b);
  return pa !== undefined && pb !== undefined && pa.compressed === pb.compressed;
}
