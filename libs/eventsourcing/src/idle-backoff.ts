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
