import { sleep } from '../abortable-sleep';

/** A consumer woken while idle reads this much later: long enough for concurrent publishes to share a page. */
export const WAKEUP_LINGER_MS = 2;

/**
 * Lets a consumer loop that has caught up sleep until a NOTIFY for its topic, the poll interval, or stop, whichever is
 * first. A notification that arrives while the loop is busy (reading or handling) is remembered, so the next wait
 * returns at once. One that wakes the idle loop is followed by a short linger, so the read after it takes the
 * messages of the publishes committing around it as one page instead of one read each.
 */
export class TopicWakeup {
  private pending = false;
  private wakeNow?: () => void;

  constructor(private readonly lingerMs = WAKEUP_LINGER_MS) {}

  readonly notify = (): void => {
    this.pending = true;
    this.wakeNow?.();
  };

  /** True when a notification ended the wait (or came before it): the caller's poll pause may start over. */
  async wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (!this.pending && !signal.aborted) {
      const woken = new AbortController();
      const onStop = (): void => woken.abort();
      this.wakeNow = onStop;
      signal.addEventListener('abort', onStop, { once: true });
      await sleep(ms, woken.signal);
      signal.removeEventListener('abort', onStop);
      this.wakeNow = undefined;
      if (this.pending) await sleep(this.lingerMs, signal);
    }
    // Cleared only now: notifications that came while lingering are for rows the next read sees.
    const notified = this.pending;
    this.pending = false;
    return notified;
  }
}
