import { v7 as uuidv7 } from 'uuid';
import { Transactional } from './migrations';
import { ident, queryRows, SqlExecutor } from './sql';

export interface TimerRow {
  id: string;
  name: string;
  stream_id: string | null;
  platform_id: string | null;
  payload: Record<string, unknown>;
  due_at: Date;
  attempts: number;
}

export interface ScheduleTimer {
  name: string;
  /** Simulated delay at the spec's timing; multiplied by SANDBOX_TIME_SCALE (unless `realTime`). */
  delayMs: number;
  /** A real deadline a caller asked for (e.g. a hold's expiry): `delayMs` is used as is, never scaled. */
  realTime?: boolean;
  streamId?: string;
  platformId?: string;
  payload?: Record<string, unknown>;
  id?: string;
}

/** Fires one timer inside the poller's transaction; its effects commit together with `fired_at`. */
export type TimerHandler<Tx> = (tx: Tx, timer: TimerRow) => Promise<void>;

/**
 * Durable timers (DESIGN §4): rows in the owning service's schema, scheduled in the same transaction as the events
 * that call for them, so they survive a restart. Due times use the database clock.
 */
export class DurableTimers<Tx extends SqlExecutor> {
  private readonly table: string;
  private loop?: { stop: () => void; done: Promise<void> };

  constructor(
    private readonly db: Transactional<Tx>,
    schema: string,
    private readonly options: { timeScale: number; pollIntervalMs?: number; batchSizeMax?: number; retryDelayMaxMs?: number },
  ) {
    this.table = `${ident(schema)}.timers`;
  }

  async schedule(tx: SqlExecutor, timer: ScheduleTimer): Promise<string> {
    const id = timer.id ?? uuidv7();
    const delayMs = Math.max(0, Math.round(timer.realTime ? timer.delayMs : timer.delayMs * this.options.timeScale));
    await queryRows(tx, 
      `INSERT INTO ${this.table} (id, name, stream_id, platform_id, payload, due_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, now() + ($6::bigint * interval '1 millisecond'))
       ON CONFLICT (id) DO NOTHING`,
      [id, timer.name, timer.streamId ?? null, timer.platformId ?? null, JSON.stringify(timer.payload ?? {}), delayMs],
    );
    return id;
  }

  async cancel(tx: SqlExecutor, id: string): Promise<void> {
    await queryRows(tx, `DELETE FROM ${this.table} WHERE id = $1 AND fired_at IS NULL`, [id]);
  }

  /** Fires every due timer once; returns how many fired. A failing handler is retried later with backoff. */
  async fireDue(handlers: Record<string, TimerHandler<Tx>>): Promise<number> {
    let fired = 0;
    const failedThisRound: string[] = []; // a failing timer waits for the next round, not this loop
    for (let i = 0; i < (this.options.batchSizeMax ?? 100); i++) {
      const outcome = await this.fireOne(handlers, failedThisRound);
      if (outcome === 'none') break;
      if (outcome === 'fired') fired++;
    }
    return fired;
  }

  start(handlers: Record<string, TimerHandler<Tx>>, onError: (e: unknown) => void = () => undefined): void {
    if (this.loop) return;
    let running = true;
    let wake: () => void = () => undefined;
    const done = (async () => {
      while (running) {
        await this.fireDue(handlers).catch(onError);
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, this.options.pollIntervalMs ?? 200);
        });
      }
    })();
    this.loop = { stop: () => ((running = false), wake()), done };
  }

  async stop(): Promise<void> {
    if (!this.loop) return;
    this.loop.stop();
    await this.loop.done;
    this.loop = undefined;
  }

  private async fireOne(handlers: Record<string, TimerHandler<Tx>>, skip: string[]): Promise<'fired' | 'failed' | 'none'> {
    let failed: { id: string; attempts: number; error: unknown } | undefined;
    const outcome = await this.db.transaction(async (tx) => {
      const rows: TimerRow[] = await queryRows(tx, 
        `SELECT * FROM ${this.table} WHERE fired_at IS NULL AND due_at <= now() AND NOT (id = ANY($1::uuid[]))
         ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [skip],
      );
      if (rows.length === 0) return 'none' as const;
      const timer = rows[0];
      const handler: TimerHandler<Tx> | undefined = handlers[timer.name];
      if (!handler) {
        failed = { id: timer.id, attempts: timer.attempts + 1, error: new Error(`no handler for timer ${timer.name}`) };
        return 'failed' as const;
      }
      try {
        // The savepoint keeps a failed handler's partial writes out while the timer row stays locked by us.
        await queryRows(tx, 'SAVEPOINT timer_handler');
        await handler(tx, timer);
        await queryRows(tx, 'RELEASE SAVEPOINT timer_handler');
      } catch (error) {
        await queryRows(tx, 'ROLLBACK TO SAVEPOINT timer_handler');
        failed = { id: timer.id, attempts: timer.attempts + 1, error };
        return 'failed' as const;
      }
      await queryRows(tx, `UPDATE ${this.table} SET fired_at = now(), attempts = attempts + 1 WHERE id = $1`, [timer.id]);
      return 'fired' as const;
    });
    if (failed) {
      skip.push(failed.id);
      await this.postpone(failed.id, failed.attempts, failed.error);
    }
    return outcome;
  }

  /** Never drops a timer: backs off exponentially (capped) and records the error for operators. */
  private async postpone(id: string, attempts: number, error: unknown): Promise<void> {
    const delayMs = Math.min(this.options.retryDelayMaxMs ?? 60_000, 100 * 2 ** Math.min(attempts, 20));
    await this.db.query(
      `UPDATE ${this.table} SET attempts = $2, last_error = $3, due_at = now() + ($4::bigint * interval '1 millisecond') WHERE id = $1`,
      [id, attempts, String((error as Error)?.message ?? error).slice(0, 1000), delayMs],
    );
  }
}
