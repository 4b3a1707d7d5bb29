/** At most `failures` failed attempts at once, earned back evenly over `perMs` (a leaky bucket). */
export interface FailureBudget {
  failures: number;
  perMs: number;
}

/**
 * Budgets of operations whose path holds the credential (`auth: 'none'`: device-code redemption): per credential (a
 * code hammered after it expired or was used), per source address (`request.ip`, right behind an ingress with the
 * gateway's trust-proxy setting) and for the whole gateway (many addresses at once). Codes carry 140 bits, so these
 * are a second line: they keep a guessing run slow and loud, and cost a legitimate redemption nothing.
 */
export const CREDENTIAL_PATH_BUDGETS: Record<'credential' | 'source' | 'global', FailureBudget> = {
  credential: { failures: 5, perMs: 15 * 60_000 },
  source: { failures: 10, perMs: 60_000 },
  global: { failures: 100, perMs: 60_000 },
};

export interface AttemptKeys {
  credential: string;
  source: string;
}

/**
 * Failed attempts counted in this gateway's memory (several replicas each keep their own, as RateLimiter does).
 * `retryAfter` is asked before the attempt, `fail` told after a refused one; nothing is counted for a success.
 */
export class FailedAttempts {
  private readonly levels = new Map<string, { level: number; at: number }>();

  constructor(
    private readonly budgets = CREDENTIAL_PATH_BUDGETS,
    private readonly keysMax = 100_000,
  ) {}

  /** Seconds to wait before another attempt with these keys may be made; 0 when it may be made now. */
  retryAfter(keys: AttemptKeys, now = Date.now()): number {
    return Math.max(...this.entries(keys).map(([key, budget]) => waitOf(this.level(key, budget, now), budget)));
  }

  fail(keys: AttemptKeys, now = Date.now()): void {
    for (const [key, budget] of this.entries(keys)) {
      const level = this.level(key, budget, now) + 1;
      if (!this.levels.has(key) && this.levels.size >= this.keysMax) this.levels.delete(this.levels.keys().next().value as string);
      this.levels.set(key, { level, at: now });
    }
  }

  private entries(keys: AttemptKeys): [string, FailureBudget][] {
    return [
      [`credential:${keys.credential}`, this.budgets.credential],
      [`source:${keys.source}`, this.budgets.source],
      ['global', this.budgets.global],
    ];
  }

  /** The failures still counted for a key now (they leak away at failures / perMs). */
  private level(key: string, budget: FailureBudget, now: number): number {
    const entry = this.levels.get(key);
    if (!entry) return 0;
    const level = Math.max(0, entry.level - ((now - entry.at) * budget.failures) / budget.perMs);
    if (level === 0) this.levels.delete(key);
    return level;
  }
}

/** Seconds until one more failure fits the budget (>= 1 when it does not fit now). */
function waitOf(level: number, budget: FailureBudget): number {
  const excess = level + 1 - budget.failures;
  return excess <= 0 ? 0 : Math.max(1, Math.ceil((excess * budget.perMs) / budget.failures / 1000));
}
