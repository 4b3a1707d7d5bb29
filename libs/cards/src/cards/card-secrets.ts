import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from '@payments/contracts';

/** How long a panEmbedUrl works. */
export const REVEAL_TTL_MS = 5 * 60_000;

export interface RevealClaims {
  cardId: string;
  platformId: string;
  mode: Mode;
  expiresAt: number;
}

const derive = (secret: Buffer, label: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `payments/cards/${label}`, 32));
const digitsOf = (mac: Buffer, count: number) => Array.from(mac.subarray(0, count), (b) => String(b % 10)).join('');

/** The Luhn check digit that makes `body + digit + tail` valid. */
function luhnDigitBefore(body: string, tail: string): string {
  for (let d = 0; d <= 9; d++) {
    const pan = `${body}${d}${tail}`;
    const sum = [...pan].reverse().reduce((s, ch, i) => {
      const n = Number(ch) * (i % 2 === 1 ? 2 : 1);
      return s + (n > 9 ? n - 9 : n);
    }, 0);
    if (sum % 10 === 0) return String(d);
  }
  throw new Error('unreachable: one digit always completes a Luhn sum');
}

/**
 * The card secrets of the simulated issuer, all derived from SECRET_HASH_KEY (nothing card-secret is stored): the PAN
 * and CVV of a card (HMAC of its id, the PAN ending in its last4 and Luhn-valid), and the HMAC-signed reveal tokens.
 */
export class CardSecrets {
  private readonly panKey: Buffer;
  private readonly revealKey: Buffer;

  constructor(secretHashKey: Buffer) {
    this.panKey = derive(secretHashKey, 'pan');
    this.revealKey = derive(secretHashKey, 'reveal');
  }

  pan(cardId: string, last4: string): string {
    const body = `400000${digitsOf(createHmac('sha256', this.panKey).update(`pan:${cardId}`).digest(), 5)}`;
    return `${body}${luhnDigitBefore(body, last4)}${last4}`;
  }

  cvv(cardId: string): string {
    return digitsOf(createHmac('sha256', this.panKey).update(`cvv:${cardId}`).digest(), 3);
  }

  /** Opaque references the issuer and processor would give the card. */
  reference(kind: 'processor' | 'issuer', cardId: string): string {
    return `${kind === 'processor' ? 'proc' : 'iss'}_${createHmac('sha256', this.panKey).update(`${kind}:${cardId}`).digest('hex').slice(0, 24)}`;
  }

  revealToken(claims: RevealClaims): string {
    const body = Buffer.from(JSON.stringify({ c: claims.cardId, p: claims.platformId, m: claims.mode, e: claims.expiresAt, n: randomBytes(12).toString('base64url') })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The claims of an untampered, unexpired token; undefined otherwise. */
  openRevealToken(token: string, now: number): RevealClaims | undefined {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined || !/^[A-Za-z0-9_-]{1,1024}$/.test(body)) return undefined;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const c = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { c: string; p: string; m: Mode; e: number };
      if (typeof c.e !== 'number' || c.e <= now) return undefined;
      return { cardId: c.c, platformId: c.p, mode: c.m, expiresAt: c.e };
    } catch {
      return undefined;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.revealKey).update(body).digest('base64url');
  }
}
