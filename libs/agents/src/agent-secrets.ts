import { createHmac, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * Device codes: 28 characters of a 32-letter alphabet without look-alikes (140 bits: the code is the whole credential
 * of an anonymous redemption, so it must not be guessable however many tries are made), shown in groups of four.
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 28;

/** Device codes and access tokens: random, shown once, kept only as keyed hashes (key derived from SECRET_HASH_KEY). */
export class AgentSecrets {
  private readonly key: Buffer;

  constructor(secretHashKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', secretHashKey, Buffer.alloc(0), 'payments/agents/credentials', 32));
  }

  newDeviceCode(): string {
    const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return chars.match(/.{4}/g)!.join('-');
  }

  newTokenId(): string {
    return `AgentAccessToken:${uuidv7()}`;
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
