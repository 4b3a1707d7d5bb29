/**
 * Token bucket per credential, in this gateway's memory: `ratePerSecond` sustained, `burst` at once. With several
 * gateway replicas each enforces its own share (documented); no shared store on the hot path.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly bucketsMax = 100_000,
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds to wait before the next one (>= 1). */
  take(key: string, now = Date.now()): number {
    if (this.ratePerSecond <= 0) return 0; // disabled
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.ratePerSecond);
    bucket.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= this.bucketsMax) this.buckets.delete(this.buckets.keys().next().value as string);
      this.buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond));
  }
}
