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
  readonly sealer: SecretSealer;
  private readonly signerSeed: Buffer;
  private readonly otpTargetSeed: Buffer;
  private readonly otpHashKey: Buffer;
  private enclaveSigner?: EnclaveSigner;

  constructor(serverKey: Buffer) {
    const derive = (purpose: string, bytes = 32) => Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), `payments-platform/wallet-auth/${purpose}`, bytes));
    this.signerSeed = derive('enclave-signer/v1', 48);
    this.sealer = new SecretSealer(serverKey, 'payments-platform/wallet-auth/sealed/v1');
    this.otpTargetSeed = derive('otp-target/v1');
    this.otpHashKey = derive('otp-hash/v1');
  }

  /**
   * The enclave signer, derived when first used: the process's first P-256 point multiplication builds the curve's
   * precomputed tables (about 0.1 s), which a boot need not wait for.
   */
  get signer(): EnclaveSigner {
    if (!this.enclaveSigner) {
      const pair = scalarKeyPair(this.signerSeed);
      this.enclaveSigner = { privateKey: pair.privateKey, publicKeyUncompressed: pair.publicKeyUncompressed };
    }
    return this.enclaveSigner;
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
