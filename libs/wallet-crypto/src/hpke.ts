import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import { p256 } from '@noble/curves/p256';
import { concatBytes, hexToBytes } from '@noble/hashes/utils';
import { parseP256PublicKey } from './p256-keys';

/** RFC 9180 `info` of every Embedded Wallet HPKE message (Turnkey convention). */
export const HPKE_INFO = 'turnkey_hpke';

/** Thrown by `hpkeOpen` for any failure: bad enc, wrong key, tampered ciphertext or AAD. */
export class HpkeOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HpkeOpenError';
  }
}

export interface HpkeSealed {
  /** The sender's ephemeral public key, 65-byte uncompressed SEC1. */
  encappedPublic: Uint8Array;
  /** AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: Uint8Array;
}

// Base mode, DHKEM(P-256, HKDF-SHA256) / HKDF-SHA256 / AES-256-GCM; stateless, so one instance serves every call.
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const info = new TextEncoder().encode(HPKE_INFO);

/** Single-shot seal; AAD = enc ‖ recipient public key, both uncompressed. Throws if the recipient is not a P-256 key. */
export async function hpkeSeal(recipientPublicKeyHex: string, plaintext: Uint8Array): Promise<HpkeSealed> {
  const recipient = parseP256PublicKey(recipientPublicKeyHex);
  if (!recipient) throw new Error('hpkeSeal: recipient is not a P-256 public key');
  const recipientPublic = hexToBytes(recipient.uncompressed);
  const sender = await suite.createSenderContext({
    recipientPublicKey: await suite.kem.deserializePublicKey(recipientPublic),
    info,
  });
  // The AAD needs enc, which exists only once the sender context is made, hence no one-call suite.seal().
  const encappedPublic = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, concatBytes(encappedPublic, recipientPublic)));
  return { encappedPublic, ciphertext };
}

/** Single-shot open of `hpkeSeal`'s output (or `@turnkey/crypto` hpkeEncrypt's, enc uncompressed). */
export async function hpkeOpen(
  recipientPrivateKey: Uint8Array,
  encappedPublic: Uint8Array,
  ciphertext: Uint8Array,
): Promise<Uint8Array> {
  if (!(encappedPublic instanceof Uint8Array) || encappedPublic.length !== 65 || encappedPublic[0] !== 0x04) {
    throw new HpkeOpenError('encapsulated key is not a 65-byte uncompressed P-256 point');
  }
  try {
    const recipientPublic = p256.getPublicKey(recipientPrivateKey, false);
    const recipient = await suite.createRecipientContext({
      recipientKey: await suite.kem.deserializePrivateKey(recipientPrivateKey),
      enc: encappedPublic,
      info,
    });
    return new Uint8Array(await recipient.open(ciphertext, concatBytes(encappedPublic, recipientPublic)));
  } catch (error) {
    throw new HpkeOpenError('HPKE open failed', { cause: error });
  }
}
