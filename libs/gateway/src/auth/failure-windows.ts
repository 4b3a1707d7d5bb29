/** At most `failures` failures in a window of `windowMs` opened by the first one; `failures` 0: no limit. */
export interface FailureLimit {
  failures: number;
  windowMs: number;
}

/** A key failures are counted under (a client id, a source address, a code, the whole gateway) and its limit. */
export type LimitedKey = readonly [key: string, limit: FailureLimit];

/**
 * Failed attempts counted in this gateway's memory, the one mechanism behind every "too many failures" refusal (HTTP
 * Basic guesses, credential-in-path redemptions). Fixed windows: a key's first failure opens its window; once the
 * key has failed `failures` times in it, attempts under it are held back until the window ends. Several replicas
 * each keep their own counts (documented; a shared store would put a round trip on every request). Bounded: the
 * oldest windows are dropped first beyond `entriesMax`. Nothing is counted for a success.
 */
export class FailureWindows {
  private readonly windows = new Map<string, { failures: number; endsAt: number }>();

  constructor(private readonly entriesMax = 100_000) {}

  /** Seconds to wait before an attempt under these keys may be made; 0 when it may be made now. */
  retryAfter(keys: readonly LimitedKey[], now = Date.now()): number {
    return Math.max(0, ...keys.map(([key, limit]) => this.secondsHeld(key, limit, now)));
  }

  /** Counts one failure under each key. */
  fail(keys: readonly LimitedKey[], now = Date.now()): void {
    for (const [key, limit] of keys) {
      if (limit.failures <= 0) continue;
      const current = this.windows.get(key);
      if (current && current.endsAt > now) {
        current.failures += 1;
        continue;
      }
      this.windows.delete(key); // re-inserted last: Map order is the eviction order
      if (this.windows.size >= this.entriesMax) this.windows.delete(this.windows.keys().next().value as string);
      this.windows.set(key, { failures: 1, endsAt: now + limit.windowMs });
    }
  }

  private secondsHeld(key: string, limit: FailureLimit, now: number): number {
    const window = this.windows.get(key);
    if (limit.failures <= 0 || !window || window.endsAt <= now) return 0;
    return window.failures >= limit.failures ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : 0;
  }
}
