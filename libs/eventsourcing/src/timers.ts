import { v7 as uuidv7 } from 'uuid';
import { activeTraceparent, contextFromTraceparent, inSpan, SpanKind } from '@payments/observability';
import { Transactional } from './migrations';
import { ident, IF_APPENDED, queryPrepared, queryRows, SqlExecutor, Statement } from './sql';
import { Batcher } from './batcher';
import { WakeSchedule } from './idle-backoff';
import { PollPause } from './poll-pause';

export interface TimerRow {
  id: string;
  name: string;
  stream_id: string | null;
  platform_id: string | null;
  payload: Record<string, unknown>;
  due_at: Date;
  /** Claims so far, this one included: also the claim's fencing token (only its holder records the outcome). */
  attempts: number;
  /** W3C trace context it was scheduled in; its handler runs in a span child of it. */
  traceparent?: string | null;
}

/**
 * Thrown by a handler that knows by when it can go on (another writer's lease runs out at a known time): the timer is
 * retried on its backoff, but no later than `retryWithinMs`, so a grown backoff never overshoots that moment.
 */
export class TimerNotYet extends Error {
  constructor(message: string, readonly retryWithinMs?: number) {
    super(message);
  }
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
  /**
   * A timer this one makes pointless (the step it guarded is done): deleted in the same statement if it has not
   * fired, so it never claims, loads and fires to do nothing.
   */
  replaces?: string;
}

/**
 * Fires one timer with no transaction open (it may make RPCs); it opens its own transactions for its writes. A crash
 * after its effects but before `fired_at` is recorded fires it again, so a second run must have no second effect.
 */
export type TimerHandler = (timer: TimerRow) => Promise<void>;

/** How long past a locally scheduled timer's due time the poller is woken: room for the scheduling commit. */
const WAKE_AFTER_DUE_MS = 5;

export interface DurableTimersOptions {
  timeScale: number;
  /** Pause after a round that fired something, and the first pause once nothing is due (200 ms). */
  pollIntervalMs?: number;
  /**
   * Longest pause while idle (IDLE_POLL_MAX_MS): each idle round doubles the pause up to this. A timer this process schedules or
   * postpones wakes the poller when it falls due, so the bound only delays timers scheduled by another process (a
   * second replica) or left by a process that died (after its lease).
   */
  pollIdleMaxMs?: number;
  /** Handlers running at once in this poller (16). */
  concurrency?: number;
  /**
   * How long a claim keeps other pollers off a timer (5 s); renewed while its handler runs, so it only runs out when
   * the process dies, and then delays that process's claimed timers by at most this much (measured by the chaos run).
   */
  leaseMs?: number;
  retryDelayMaxMs?: number;
}

/**
 * Durable timers (DESIGN §4): rows in the owning service's schema, scheduled in the same transaction as the events
 * that call for them, so they survive a restart. Due times and leases use the database clock.
 */
export class DurableTimers<Tx extends SqlExecutor> {
  private readonly table: string;
  private loop?: { pause: PollPause; done: Promise<void> };
  private stopping = false;
  /** Wakes the poller when each timer this process scheduled or postponed falls due (wakeIn), even mid-round. */
  private readonly dueWakes = new WakeSchedule(() => this.loop?.pause.wake());
  /**
   * Fired timers' records: those finishing while one batch is written share the next statement, instead of one
   * statement per timer (issue #30), still fenced by each claim's attempts.
   */
  private readonly fired = new Batcher<{ timer: TimerRow; resolve: () => void; reject: (error: unknown) => void }>((batch) => this.writeFired(batch), { inFlightMax: 1, gatherFirst: true });

  constructor(
    private readonly db: Transactional<Tx>,
    schema: string,
    private readonly options: DurableTimersOptions,
  ) {
    this.table = `${ident(schema)}.timers`;
  }

  private get leaseMs(): number {
    return this.options.leaseMs ?? 5_000;
  }

  async schedule(tx: SqlExecutor, timer: ScheduleTimer): Promise<string> {
    const [id] = await this.scheduleMany(tx, [timer]);
    return id;
  }

  /**
   * Several timers in one statement (a group commit's transactions), each as `schedule` would; the timers they
   * replace, and `cancelled` ones, deleted in the same statement if they have not fired. Returns their ids in order.
   */
  async scheduleMany(tx: SqlExecutor, timers: readonly ScheduleTimer[], cancelled: readonly string[] = []): Promise<string[]> {
    if (timers.length === 0 && cancelled.length === 0) return [];
    const { ids, insert, deletedIds, delays } = this.rowsOf(timers, cancelled, 'true');
    // A data-modifying CTE runs even when the INSERT has no rows: cancelling alone is this one statement too.
    await queryPrepared(tx, `WITH deleted AS (${this.deleteSql(insert.params.length + 1)}) ${insert.sql}`, [...insert.params, deletedIds]);
    this.wakeForAll(delays);
    return ids;
  }

  /**
   * `scheduleMany` as statements sent alongside an append (`withAlongside`, issue #30: in its statement, no round
   * trip of their own), written only if the append is. Answers the statements and the timers' ids in order.
   */
  scheduleAlongside(timers: readonly ScheduleTimer[], cancelled: readonly string[] = []): { statements: Statement[]; ids: string[] } {
    if (timers.length === 0 && cancelled.length === 0) return { statements: [], ids: [] };
    const { ids, insert, deletedIds, delays } = this.rowsOf(timers, cancelled, IF_APPENDED);
    // Registered now, though the statements may never be written (a refused append, a rolled-back transaction): the
    // command executor has no after-commit hook to hand them to, and a wake-up with nothing due costs one idle poll.
    this.wakeForAll(delays);
    const deleted = deletedIds.length > 0 ? [{ sql: `${this.deleteSql(1)} AND ${IF_APPENDED}`, params: [deletedIds] }] : [];
    return { statements: [...deleted, ...(ids.length > 0 ? [insert] : [])], ids };
  }

  /** Deletes the unfired timers whose ids are parameter `$param`. */
  private deleteSql(param: number): string {
    return `DELETE FROM ${this.table} WHERE id = ANY($${param}::uuid[]) AND fired_at IS NULL`;
  }

  /** The INSERT of `timers` (its rows where `where`), and the ids to delete: those they replace and `cancelled`. */
  private rowsOf(timers: readonly ScheduleTimer[], cancelled: readonly string[], where: string): { ids: string[]; insert: Statement; deletedIds: string[]; delays: number[] } {
    const ids = timers.map((t) => t.id ?? uuidv7());
    const delays = timers.map((t) => Math.max(0, Math.round(t.realTime ? t.delayMs : t.delayMs * this.options.timeScale)));
    const insert = {
      sql: `INSERT INTO ${this.table} (id, name, stream_id, platform_id, payload, due_at, traceparent)
       SELECT t.id, t.name, t.stream_id, t.platform_id, t.payload::jsonb, now() + (t.delay_ms * interval '1 millisecond'), $7
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS t(id, name, stream_id, platform_id, payload, delay_ms)
        WHERE ${where}
       ON CONFLICT (id) DO NOTHING`,
      params: [ids, timers.map((t) => t.name), timers.map((t) => t.streamId ?? null), timers.map((t) => t.platformId ?? null), timers.map((t) => JSON.stringify(t.payload ?? {})), delays, activeTraceparent() ?? null],
    };
    return { ids, insert, deletedIds: [...timers.flatMap((t) => (t.replaces ? [t.replaces] : [])), ...cancelled], delays };
  }

  /**
   * Fires due timers, `concurrency` at a time, until none is left due; returns how many fired. A failing timer is
   * retried by a later round with backoff. Resolves once every handler it started has finished.
   */
  async fireDue(handlers: Record<string, TimerHandler>): Promise<number> {
    const concurrency = Math.max(1, this.options.concurrency ?? 16);
    const running = new Map<string, { timer: TimerRow; done: Promise<void> }>();
    const failed: string[] = []; // a failing timer waits for a later round, not this one
    let fired = 0;
    let drained = false;
    let recordError: unknown;
    const renewal = setInterval(() => void this.renew([...running.values()].map((r) => r.timer)).catch(() => undefined), this.leaseMs / 3);
    renewal.unref();
    try {
      for (;;) {
        const free = concurrency - running.size;
        // Refill once half the slots are free: one claim serves several handlers, and none waits for the slowest.
        if (!drained && !this.stopping && free * 2 >= concurrency) {
          const batch = await this.claim(free, failed);
          drained = batch.length < free;
          for (const timer of batch) {
            const done = this.fire(timer, handlers)
              .then((ok) => (ok ? fired++ : failed.push(timer.id)), (e: unknown) => (recordError ??= e))
              .then(() => void running.delete(timer.id));
            running.set(timer.id, { timer, done });
          }
          continue;
        }
        if (running.size === 0) break;
        await Promise.race([...running.values()].map((r) => r.done));
      }
    } finally {
      await Promise.all([...running.values()].map((r) => r.done)); // a failed claim still lets started handlers finish
      clearInterval(renewal);
    }
    if (recordError) throw recordError; // that timer keeps its lease and fires again once it runs out
    return fired;
  }

  /** Due timers not fired yet (leased ones included) and how long the oldest has been due. */
  async backlog(): Promise<{ due: number; oldestDueMs: number }> {
    const [row] = await queryRows<{ due: number; oldest_due_ms: number }>(
      this.db,
      `SELECT count(*)::int AS due, coalesce(extract(epoch FROM now() - min(due_at)) * 1000, 0)::float8 AS oldest_due_ms
         FROM ${this.table} WHERE fired_at IS NULL AND due_at <= now()`,
    );
    return { due: row.due, oldestDueMs: Math.round(row.oldest_due_ms) };
  }

  /**
   * Polls in the background: at `pollIntervalMs` while timers fire, backing off to `pollIdleMaxMs` while none is due
   * (an idle service no longer queries its timers five times a second), and woken by the timers it schedules.
   */
  start(handlers: Record<string, TimerHandler>, onError: (e: unknown) => void = () => undefined): void {
    if (this.loop) return;
    const pause = new PollPause({ baseMs: this.options.pollIntervalMs ?? 200, maxMs: this.options.pollIdleMaxMs });
    const done = (async () => {
      while (!this.stopping) {
        const fired = await this.fireDue(handlers).catch((e: unknown) => (onError(e), 0));
        if (this.stopping) break;
        if (fired > 0) pause.worked();
        await pause.pause(); // a timer falling due while the round ran: the next round starts at once
      }
    })();
    this.loop = { pause, done };
  }

  /**
   * Wakes the poller when a timer this process wrote falls due. Scheduling runs inside the caller's transaction, so
   * the wake-up waits a little past the due time for the commit; if the row is still not visible, the poller is back
   * at its busy pace and finds it on the next round.
   */
  private wakeIn(delayMs: number): void {
    if (this.loop && !this.stopping) this.dueWakes.in(delayMs + WAKE_AFTER_DUE_MS);
  }

  private wakeForAll(delays: readonly number[]): void {
    for (const delay of delays) this.wakeIn(delay);
  }

  /** Stops claiming and waits for the handlers already running. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.dueWakes.cancel();
    this.loop.pause.stop();
    await this.loop.done;
    this.loop = undefined;
    this.stopping = false;
  }

  /**
   * Leases up to `limit` due timers, oldest first, in one statement (no transaction outlives it). SKIP LOCKED lets
   * another poller claim other rows at once; the lease keeps them off these until it runs out. The CTE is there
   * because TypeORM answers a bare UPDATE … RETURNING with [rows, count].
   */
  private claim(limit: number, skip: string[]): Promise<TimerRow[]> {
    return queryPrepared<TimerRow>(
      this.db,
      `WITH claimed AS (
         UPDATE ${this.table} SET locked_until = now() + ($2::bigint * interval '1 millisecond'), attempts = attempts + 1
          WHERE id IN (SELECT id FROM ${this.table}
                        WHERE fired_at IS NULL AND due_at <= now() AND (locked_until IS NULL OR locked_until < now())
                          AND NOT (id = ANY($3::uuid[]))
                        ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING *)
       SELECT * FROM claimed ORDER BY due_at`,
      [limit, this.leaseMs, skip],
    );
  }

  /** Runs one claimed timer; true when it fired. Only the current claim may record the outcome (fenced by attempts). */
  private async fire(timer: TimerRow, handlers: Record<string, TimerHandler>): Promise<boolean> {
    try {
      const handler = handlers[timer.name];
      if (!handler) throw new Error(`no handler for timer ${timer.name}`);
      const attributes = { 'timer.name': timer.name, 'timer.id': timer.id, 'timer.attempt': timer.attempts, ...(timer.stream_id ? { 'eventstore.stream_id': timer.stream_id } : {}) };
      await inSpan(`timer ${timer.name}`, { kind: SpanKind.INTERNAL, attributes, parent: contextFromTraceparent(timer.traceparent) }, () => handler(timer));
    } catch (error) {
      await this.postpone(timer, error);
      return false;
    }
    await this.recordFired(timer);
    return true;
  }

  /** Records that a timer fired (batched with others, see `fired`). A crash before the record fires it again, as it always could. */
  private recordFired(timer: TimerRow): Promise<void> {
    return new Promise((resolve, reject) => this.fired.add({ timer, resolve, reject }));
  }

  private async writeFired(batch: { timer: TimerRow; resolve: () => void; reject: (error: unknown) => void }[]): Promise<void> {
    try {
      await queryPrepared(this.db,
        `UPDATE ${this.table} t SET fired_at = now(), locked_until = NULL
           FROM unnest($1::uuid[], $2::int[]) AS f(id, attempts)
          WHERE t.id = f.id AND t.attempts = f.attempts`,
        [batch.map((f) => f.timer.id), batch.map((f) => f.timer.attempts)],
      );
      for (const f of batch) f.resolve();
    } catch (error) {
      for (const f of batch) f.reject(error);
    }
  }

  /** Never drops a timer: backs off exponentially (capped), or as its handler said, and records the error for operators. */
  private async postpone(timer: TimerRow, error: unknown): Promise<void> {
    const backoffMs = Math.min(this.options.retryDelayMaxMs ?? 60_000, 100 * 2 ** Math.min(timer.attempts, 20));
    const delayMs = error instanceof TimerNotYet && error.retryWithinMs !== undefined ? Math.max(0, Math.min(error.retryWithinMs, backoffMs)) : backoffMs;
    await queryPrepared(
      this.db,
      `UPDATE ${this.table} SET locked_until = NULL, last_error = $3, due_at = now() + ($4::bigint * interval '1 millisecond')
        WHERE id = $1 AND attempts = $2`,
      [timer.id, timer.attempts, String((error as Error)?.message ?? error).slice(0, 1000), delayMs],
    );
    this.wakeIn(delayMs);
  }

  /** Extends the leases of timers whose handlers are still running, so a slow handler never runs twice at once. */
  private async renew(timers: TimerRow[]): Promise<void> {
    if (timers.length === 0) return;
    await queryPrepared(
      this.db,
      `UPDATE ${this.table} t SET locked_until = now() + ($3::bigint * interval '1 millisecond')
         FROM unnest($1::uuid[], $2::int[]) AS c(id, attempts)
        WHERE t.id = c.id AND t.attempts = c.attempts AND t.fired_at IS NULL`,
      [timers.map((t) => t.id), timers.map((t) => t.attempts), this.leaseMs],
    );
  }
}
