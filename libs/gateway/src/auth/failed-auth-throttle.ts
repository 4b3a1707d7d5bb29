import type { FastifyRequest as Request } from 'fastify';
import { ApiError } from '@payments/contracts';
import { FailureWindows, LimitedKey } from './failure-windows';

export interface FailedAuthLimits {
  /** Failures allowed per client id in one window; 0: no limit. */
  perClient: number;
  /** Failures allowed per source address in one window; 0: no limit. */
  perAddress: number;
  windowSeconds: number;
}

export const DEFAULT_FAILED_AUTH_LIMITS: FailedAuthLimits = { perClient: 10, perAddress: 50, windowSeconds: 60 };

/**
 * Throttles guessing of HTTP Basic secrets: once a client id, or a source address, has failed `perClient` /
 * `perAddress` times in a window, every Basic attempt for it is 429 until the window ends, the right secret too, and
 * before anything is looked up (no cache, no RPC, no database). Counted by FailureWindows, in this gateway's memory.
 */
export class FailedAuthThrottle {
  private readonly windows: FailureWindows;

  constructor(
    private readonly limits: FailedAuthLimits = DEFAULT_FAILED_AUTH_LIMITS,
    entriesMax = 100_000,
  ) {
    this.windows = new FailureWindows(entriesMax);
  }

  /**
   * Runs `authenticate` unless the attempt is held back. A 401 of an attempt that named a client id (a guess) counts
   * against that id and the address; a header without one is refused before any lookup anyway, so it counts for nothing.
   */
  async attempt<T>(clientId: string | undefined, address: string, authenticate: () => Promise<T>, now = Date.now): Promise<T> {
    const keys = this.keysOf(clientId, address);
    const retryAfterSeconds = this.windows.retryAfter(keys, now());
    if (retryAfterSeconds > 0) throw new ApiError('RATE_LIMITED', 'too many failed authentication attempts: try again later', { retryAfterSeconds });
    try {
      return await authenticate();
    } catch (error) {
      if (clientId !== undefined && error instanceof ApiError && error.status === 401) this.windows.fail(keys, now());
      throw error;
    }
  }

  private keysOf(clientId: string | undefined, address: string): LimitedKey[] {
    const windowMs = this.limits.windowSeconds * 1000;
    const keys: LimitedKey[] = [[`address:${address}`, { failures: this.limits.perAddress, windowMs }]];
    if (clientId !== undefined) keys.push([`client:${clientId}`, { failures: this.limits.perClient, windowMs }]);
    return keys;
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
