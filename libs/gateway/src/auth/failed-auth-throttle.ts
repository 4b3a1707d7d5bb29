import type { Request } from 'express';
import { ApiError } from '@payments/contracts';

export interface FailedAuthLimits {
  /** Failures allowed per client id in one window; 0: no limit. */
  perClient: number;
  /** Failures allowed per source address in one window; 0: no limit. */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_FAILED_AUTH_LIMITS: FailedAuthLimits = { perClient: 10, perAddress: 50, windowSeconds: 60 };

/** One key's failures in its current window (fixed windows: the first failure opens one). */
interface Window {
  failures: number;
  endsAt: number;
}

/**
 * Throttles guessing of HTTP Basic secrets: once a client id, or a source address, has failed `perClient` /
 * `perAddress` times in a window, every Basic attempt for it is 429 until the window ends, the right secret too, and
 * before anything is looked up (no cache, no RPC, no database). Counted in this gateway instance's memory: with
 * several replicas an attacker gets each replica's share (documented; a shared store would put a round trip on every
 * request). Bounded: the oldest windows are dropped first beyond `entriesMax`.
 */
export class FailedAuthThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limits: FailedAuthLimits = DEFAULT_FAILED_AUTH_LIMITS,
    private readonly entriesMax = 100_000,
  ) {}

  /**
   * Runs `authenticate` unless the attempt is held back. A 401 of an attempt that named a client id (a guess) counts
   * against that id and the address; a header without one is refused before any lookup anyway, so it counts for nothing.
   */
  async attempt<T>(clientId: string | undefined, address: string, authenticate: () => Promise<T>, now = Date.now): Promise<T> {
    const keys = this.keysOf(clientId, address);
    const retryAfterSeconds = Math.max(0, ...keys.map(([key, limit]) => this.secondsHeld(key, limit, now())));
    if (retryAfterSeconds > 0) throw new ApiError('RATE_LIMITED', 'too many failed authentication attempts: try again later', { retryAfterSeconds });
    try {
      return await authenticate();
    } catch (error) {
      if (clientId !== undefined && error instanceof ApiError && error.status === 401) for (const [key] of keys) this.fail(key, now());
      throw error;
    }
  }

  private keysOf(clientId: string | undefined, address: string): [string, number][] {
    const keys: [string, number][] = [];
    if (this.limits.perAddress > 0) keys.push([`address:${address}`, this.limits.perAddress]);
    if (clientId !== undefined && this.limits.perClient > 0) keys.push([`client:${clientId}`, this.limits.perClient]);
    return keys;
  }

  private secondsHeld(key: string, limit: number, now: number): number {
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) return 0;
    return window.failures >= limit ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : 0;
  }

  private fail(key: string, now: number): void {
    const current = this.windows.get(key);
    if (current && current.endsAt > now) {
      current.failures += 1;
      return;
    }
    this.windows.delete(key); // re-inserted last: Map order is the eviction order
    if (this.windows.size >= this.entriesMax) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(key, { failures: 1, endsAt: now + this.limits.windowSeconds * 1000 });
  }
}

/** The client id of an HTTP Basic header, when it has one (undefined for anything else: only the address counts then). */
export function basicClientId(header: string | undefined): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/** The request's source: request.ip, which follows X-Forwarded-For only as far as TRUST_PROXY allows. */
export function sourceAddress(request: Request): string {
  return request.ip ?? request.socket?.remoteAddress ?? 'unknown';
}
