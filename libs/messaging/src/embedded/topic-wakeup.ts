import { sleep } from '../abortable-sleep';

/**
 * Lets an idle consumer loop sleep until a NOTIFY for its topic, the poll interval, or stop, whichever is first.
 * A notification that arrives while the loop is busy is remembered, so the next wait returns at once.
 */
export class TopicWakeup {
  private pending = false;
  private wakeNow?: () => void;

  readonly notify = (): void => {
    this.pending = true;
    this.wakeNow?.();
  };

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (!this.pending && !signal.aborted) {
      const woken = new AbortController();
      const onStop = (): void => woken.abort();
      this.wakeNow = onStop;
      signal.addEventListener('abort', onStop, { once: true });
      await sleep(ms, woken.signal);
      signal.removeEventListener('abort', onStop);
      this.wakeNow = undefined;
    }
    this.pending = false;
  }
}
