import { createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/** Device codes: 8 characters of an alphabet without look-alikes, shown as XXXX-XXXX. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Device codes and access tokens: random, shown once, kept only as keyed hashes (key derived from SECRET_HASH_KEY). */
export class AgentSecrets {
  private readonly key: Buffer;

  constructor(secretHashKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secretHashKey, Buffer.alloc(0), 'payments/agents/credentials', 32));
  }

  newDeviceCode(): string {
    const chars = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 4)}-${chars.slice(4)}`;
  }

  newAccessToken(): string {
    return `agt_${randomBytes(32).toString('base64url')}`;
  }

  /** The same code in any case, with or without its dash, has one hash. */
  codeHash(code: string): string {
    return this.hash(`code:${code.toUpperCase().replace(/-/g, '')}`);
  }

  tokenHash(token: string): string {
    return this.hash(`token:${token}`);
  }

  private hash(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}
