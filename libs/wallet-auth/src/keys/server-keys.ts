import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { p256 } from '@noble/curves/p256';
import { SecretSealer } from '@payments/runtime';
import { EnclaveSigner, keyPairFromPrivateKey, P256KeyPair } from '@payments/wallet-crypto';

/**
 * Every key wallet-auth needs, derived from the server key (SECRET_HASH_KEY) for one purpose each, so nothing but
 * the server key has to be kept secret and every replica derives the same keys:
 * - the enclave signer, whose signatures on target bundles and verification tokens clients may check;
 * - one OTP target key per issued OTP (from its issue id): the private half is never stored anywhere;
 * - the HMAC key of OTP hashes, and the sealer of wallet mnemonics.
 */
export class WalletServerKeys {
  readonly signer: EnclaveSigner;
  readonly sealer: SecretSealer;
  private readonly otpTargetSeed: Buffer;
  private readonly otpHashKey: Buffer;

  constructor(serverKey: Buffer) {
    const derive = (purpose: string, bytes = 32) => Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), `payments-platform/wallet-auth/${purpose}`, bytes));
    const signer = scalarKeyPair(derive('enclave-signer/v1', 48));
    this.signer = { privateKey: signer.privateKey, publicKeyUncompressed: signer.publicKeyUncompressed };
    this.sealer = new SecretSealer(serverKey, 'payments-platform/wallet-auth/sealed/v1');
    this.otpTargetSeed = derive('otp-target/v1');
    this.otpHashKey = derive('otp-hash/v1');
  }

  /** The P-256 key an OTP of this issue is HPKE-sealed to. */
  otpTargetKey(issueId: string): P256KeyPair {
    return scalarKeyPair(Buffer.from(hkdfSync('sha256', this.otpTargetSeed, Buffer.alloc(0), issueId, 48)));
  }

  /** Keyed hash of an OTP, bound to its issue: a hash copied to another issue never matches. */
  otpHash(issueId: string, code: string): string {
    return createHmac('sha256', this.otpHashKey).update(`${issueId}\n${code}`).digest('hex');
  }

  otpMatches(issueId: string, code: string, hash: string): boolean {
    const expected = Buffer.from(this.otpHash(issueId, code), 'hex');
    const given = Buffer.from(hash, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** 48 uniform bytes reduced modulo the group order (FIPS 186-5 A.2.1): a private scalar without bias. */
function scalarKeyPair(bytes: Uint8Array): P256KeyPair {
  const n = p256.CURVE.n;
  const scalar = (BigInt(`0x${Buffer.from(bytes).toString('hex')}`) % (n - 1n)) + 1n;
  return keyPairFromPrivateKey(Buffer.from(scalar.toString(16).padStart(64, '0'), 'hex'));
}
