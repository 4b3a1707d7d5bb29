import { IdleBackoff } from './idle-backoff';

/**
 * How often at most a log reader (an outbox relay, an embedded-bus consumer) stores its position while pages flow
 * (issue #30: it was once per page, a commit each). It is stored at once when the reader goes idle and on a clean
 * stop; a crash redelivers what was read since (at-least-once, made exactly-once by the inboxes), like Kafka's
 * auto-commit interval.
 */
export const POSITION_STORE_INTERVAL_MS = 1_000;

export interface PollPauseOptions {
  /** The pause after a round that found work or a wake-up. */
  baseMs: number;
  /** The longest idle pause (IDLE_POLL_MAX_MS): each idle round doubles the pause up to it. */
  maxMs?: number;
  /**
   * How long a wake that ends an idle pause waits before the pause returns: the round after it then takes what commits
   * around the wake as one page instead of one round each. Not after a wake that came while the round ran (the loop is
   * behind, it goes on at once). 0 by default.
   */
  lingerMs?: number;
  /** Ends the current pause and every later one at once (the loop is stopping). */
  signal?: AbortSignal;
}

/**
 * The pause between the rounds of a poll loop that is also woken (a nudge on a commit, a NOTIFY, a retry it set
 * falling due): the one mechanism of the relays, timers, bus consumers and background workers (issue #30).
 *
 * - A wake ends the current pause, or, when it comes while the round runs (before any pause), the next pause at once:
 *   a wake is never lost in the gap between a round and its pause.
 * - A pause a wake ended or skipped, and a round that found work (`worked`), start the back-off over: the next idle
 *   pause is `baseMs`. Each idle pause doubles it up to `maxMs`.
 */
export class PollPause {
  private readonly backoff: IdleBackoff;
  private pending = false;
  private stopped = false;
  private endNow?: () => void;

  constructor(private readonly options: PollPauseOptions) {
    this.backoff = new IdleBackoff(options.baseMs, options.maxMs);
    options.signal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** Work may be waiting: ends the current pause, or the next one at once. Cheap to call often. */
  readonly wake = (): void => {
    this.pending = true;
    this.endNow?.();
  };

  /** The round found work: the next idle pause is the base again. */
  worked(): void {
    this.backoff.active();
  }

  /** Ends the current pause and every later one (the loop is stopping). */
  stop(): void {
    this.stopped = true;
    this.endNow?.();
  }

  /**
   * The pause after a round. True when a wake ended it or came before it (the back-off starts over); false when it
   * ran out or the loop stops. `ms`: a fixed pause instead of the backed-off one (a loop waiting at its capacity).
   * `afterError`: a wake that came before does not skip this pause (a failing dependency is not retried in a tight
   * loop); one during it still ends it.
   */
  async pause(options: { ms?: number; afterError?: boolean } = {}): Promise<boolean> {
    if (options.afterError) this.pending = false;
    if (!this.pending && !this.stopped) {
      const ms = options.ms ?? this.backoff.idle();
      await this.sleep(ms);
      if (this.pending) await this.sleep(this.options.lingerMs ?? 0, false);
    }
    // Cleared only now: wakes that came while lingering are for work the next round sees.
    const woken = this.pending;
    this.pending = false;
    if (woken) this.backoff.active();
    return woken;
  }

  /** `ms`, or less when stopped (and when woken, if `wakeable`). */
  private sleep(ms: number, wakeable = true): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        this.endNow = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.endNow = wakeable ? end : () => void (this.stopped && end());
    });
  }
}
