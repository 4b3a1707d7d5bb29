/** When to try again (DESIGN: exponential backoff with full jitter, at most 30 min apart, for up to 7 days). */
export interface RetryPolicy {
  firstDelayMs: number;
  delayMaxMs: number;
  retryWindowMs: number;
  /** WEBHOOK_BACKOFF_SCALE: multiplies every delay and the window (tests use a small value). */
  scale: number;
}

export const RETRY_POLICY_DEFAULTS: Omit<RetryPolicy, 'scale'> = {
  firstDelayMs: 5_000,
  delayMaxMs: 30 * 60_000,
  retryWindowMs: 7 * 24 * 60 * 60_000,
};

/**
 * The delay before the next attempt after `attempts` failed ones: uniform in [0, min(cap, first * 2^(n-1))] ("full
 * jitter"), so receivers recovering from an outage are not hit by every platform's retries at the same instant.
 * `random` is in [0, 1).
 */
export function retryDelayMs(policy: RetryPolicy, attempts: number, random: number): number {
  const ceiling = Math.min(policy.delayMaxMs, policy.firstDelayMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(random * ceiling * policy.scale);
}

/** True when an attempt at `nextAtMs` would fall outside the retry window: the delivery becomes a dead letter. */
export function retryWindowExceeded(policy: RetryPolicy, windowFromMs: number, nextAtMs: number): boolean {
  return nextAtMs - windowFromMs > policy.retryWindowMs * policy.scale;
}

export type AttemptOutcome = 'DELIVERED' | 'REJECTED' | 'ENDPOINT_GONE' | 'RETRY';

/** 2xx: done. 409: the receiver already has this id (never retried). 410: the endpoint is gone. Else retry. */
export function outcomeOf(status: number | undefined): AttemptOutcome {
  if (status === undefined) return 'RETRY';
  if (status >= 200 && status < 300) return 'DELIVERED';
  if (status === 409) return 'REJECTED';
  if (status === 410) return 'ENDPOINT_GONE';
  return 'RETRY';
}
