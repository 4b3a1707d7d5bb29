import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * Client secrets are 256-bit random values, so a keyed hash (HMAC-SHA-256 with a server key) is enough to make a
 * leaked table useless, and costs microseconds per request instead of a slow password hash's tens of ms (DESIGN §6).
 */
export class SecretHasher {
  constructor(private readonly key: Buffer) {
    if (key.length < 32) throw new Error('the secret hash key must be at least 32 bytes');
  }

  hash(secret: string): string {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest('hex');
  }

  /** Constant-time comparison; an unknown client is compared against a dummy so timing reveals nothing. */
  verify(secret: string, expectedHash: string | undefined): boolean {
    const actual = Buffer.from(this.hash(secret), 'hex');
    const expected = Buffer.from(expectedHash ?? '00'.repeat(32), 'hex');
    return expected.length === actual.length && timingSafeEqual(actual, expected) && expectedHash !== undefined;
  }
}

export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Client ids go in the Basic-auth user part, so they must not contain a colon. */
export function generateClientId(): string {
  return uuidv7();
}
