/** The longest pause of an idle poll loop by default (issue #30: idle services no longer query several times a second). */
export const IDLE_POLL_MAX_MS = 2_000;

/**
 * The pause of a loop that polls only for what its wake-ups can miss (a relay's rows held back by the xmin guard, a
 * timer another process scheduled, a lost NOTIFY): `baseMs` after a round that found work or a wake-up for work,
 * doubling with each idle round up to `maxMs`. Bounds how late a missed wake-up is found; costs nothing while busy.
 */
export class IdleBackoff {
  private idleRounds = 0;
  private readonly maxMs: number;

  constructor(
    private readonly baseMs: number,
    maxMs = IDLE_POLL_MAX_MS,
  ) {
    this.maxMs = Math.max(baseMs, maxMs);
  }

  /** The loop found work or was woken for it: the next idle pause is the base again. */
  active(): void {
    this.idleRounds = 0;
  }

  /** A round found nothing: the pause before the next. */
  idle(): number {
    this.idleRounds++;
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.idleRounds - 1, 30));
  }
}

/** The longest a Node.js timer waits (2^31 − 1 ms, about 24.8 days): a later wake-up is re-armed when it rings. */
const TIMER_DELAY_MAX_MS = 2 ** 31 - 1;

/** Wake-ups a WakeSchedule keeps at most; past it the latest are dropped and left to the idle poll. */
export const WAKE_SCHEDULE_MAX = 1_024;

/**
 * The times a poller that backs off while idle must still wake: work it wrote itself falls due then (a timer it
 * scheduled, a retry it set). One timer is armed, at the earliest; when it rings, every time already reached is
 * passed and the next is armed. Times within `coalesceMs` of a kept one share its ring. The timer never keeps the
 * process alive.
 */
export class WakeSchedule {
  /** Ascending. */
  private readonly times: number[] = [];
  private armed?: { at: number; timer: NodeJS.Timeout };

  constructor(
    private readonly ring: () => void,
    private readonly coalesceMs = 5,
  ) {}

  in(delayMs: number): void {
    const at = Date.now() + Math.max(0, delayMs);
    let i = this.times.length;
    while (i > 0 && this.times[i - 1] > at) i--; // usually appended: delays are alike
    if ((i > 0 && at - this.times[i - 1] <= this.coalesceMs) || (i < this.times.length && this.times[i] - at <= this.coalesceMs)) return;
    this.times.splice(i, 0, at);
    if (this.times.length > WAKE_SCHEDULE_MAX) this.times.pop();
    this.arm();
  }

  cancel(): void {
    if (this.armed) clearTimeout(this.armed.timer);
    this.armed = undefined;
    this.times.length = 0;
  }

  private arm(): void {
    const next = this.times[0];
    if (next === undefined || (this.armed && this.armed.at <= next)) return;
    if (this.armed) clearTimeout(this.armed.timer);
    const timer = setTimeout(() => {
      this.armed = undefined;
      // Timers may ring a millisecond early by Date.now(): what is within coalesceMs counts as reached.
      const reached = Date.now() + this.coalesceMs;
      let due = false;
      while (this.times.length > 0 && this.times[0] <= reached) {
        this.times.shift();
        due = true;
      }
      this.arm();
      if (due) this.ring(); // not when only a wait longer than one timer's ended
    }, Math.min(TIMER_DELAY_MAX_MS, Math.max(0, next - Date.now())));
    timer.unref();
    this.armed = { at: next, timer };
  }
}
