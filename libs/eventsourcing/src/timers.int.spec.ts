import type { EntityManager } from 'typeorm';
import { eventually } from '@payments/testing';
import { Transactional } from './migrations';
import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { asTransactional } from './typeorm';
import { DurableTimers, DurableTimersOptions, TimerHandler, TimerNotYet, TimerRow } from './timers';

/** Resolves once `n` callers have arrived; a caller still waiting after `timeoutMs` fails instead of hanging. */
function barrier(n: number, timeoutMs = 3_000): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return async () => {
    if (++arrived === n) open();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`only ${arrived} of ${n} handlers started`)), timeoutMs)));
    await Promise.race([all, late]).finally(() => clearTimeout(timer));
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DurableTimers (real PostgreSQL)', () => {
  let db: TestServiceDb;
  const timersOn = (options: Partial<DurableTimersOptions> = {}, on: Transactional<EntityManager> = asTransactional(db.dataSource)) =>
    new DurableTimers(on, 'svc', { timeScale: 0, ...options });
  const scheduleDue = (timers: DurableTimers<EntityManager>, count: number, name = 'quote.expire') =>
    db.dataSource.transaction(async (tx) => {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push(await timers.schedule(tx, { name, delayMs: 0 }));
      return ids;
    });
  const effects = async () => (await db.dataSource.query(`SELECT count(*)::int AS n FROM svc.effects`))[0].n;

  beforeEach(async () => {
    db = await openTestServiceDb('svc');
    await db.dataSource.query(`CREATE TABLE svc.effects (timer_id uuid primary key, fired_at timestamptz default now())`);
  });
  afterEach(() => db.close());

  // A second run of the same timer would break the primary key: every test also checks "one effect per timer".
  const effect = (timer: TimerRow) => db.dataSource.query(`INSERT INTO svc.effects (timer_id) VALUES ($1)`, [timer.id]);
  const handlers: Record<string, TimerHandler> = { 'quote.expire': effect };

  it('records timers that finish together in shared statements: 32 fired, far fewer records, each once', async () => {
    const base = asTransactional(db.dataSource);
    let records = 0;
    const counting: Transactional<EntityManager> = { ...base, query: (sql: string, params?: unknown[]) => ((records += /SET fired_at/.test(sql) ? 1 : 0), base.query(sql, params)) } as Transactional<EntityManager>;
    const timers = timersOn({ concurrency: 32 }, counting);
    await scheduleDue(timers, 32);
    // The 32 handlers finish together (each waits for the others), so how many share a statement does not depend on
    // how fast a loaded machine runs them (CI once recorded 25 statements for 32 timers that finished one by one).
    const together = barrier(32);
    const finishingTogether: Record<string, TimerHandler> = { 'quote.expire': async (timer) => (await effect(timer), await together()) };
    expect(await timers.fireDue(finishingTogether)).toBe(32);
    expect(await effects()).toBe(32);
    expect((await db.dataSource.query(`SELECT count(*)::int AS n FROM svc.timers WHERE fired_at IS NULL`))[0].n).toBe(0);
    expect(records).toBeLessThan(8); // one per timer before (32)
  });

  it('scheduleMany deletes the timers it replaces and the cancelled ones in its one statement, never a fired one', async () => {
    const timers = timersOn();
    const [replaced, cancelled, fired, kept] = await scheduleDue(timers, 4);
    await db.dataSource.query(`UPDATE svc.timers SET fired_at = now() WHERE id = $1`, [fired]);
    let statements = 0;
    const [next] = await db.dataSource.transaction((tx) => {
      const counted = { query: (sql: string, params?: unknown[]) => ((statements += 1), tx.query(sql, params)) };
      return timers.scheduleMany(counted, [{ name: 'quote.expire', delayMs: 60_000, replaces: replaced }], [cancelled, fired]);
    });
    expect(statements).toBe(1);
    const left = (await db.dataSource.query(`SELECT id FROM svc.timers ORDER BY id`)).map((r: { id: string }) => r.id).sort();
    expect(left).toEqual([fired, kept, next].sort());
    // Cancelling alone (nothing to schedule) is still a statement that deletes.
    await db.dataSource.transaction((tx) => timers.scheduleMany(tx, [], [kept]));
    expect((await db.dataSource.query(`SELECT 1 FROM svc.timers WHERE id = $1`, [kept])).length).toBe(0);
  });

  it('backs off while idle, yet fires a timer it schedules at once and one another process schedules within the idle bound', async () => {
    const base = asTransactional(db.dataSource);
    let claims = 0;
    const counting = { ...base, query: (sql: string, params?: unknown[]) => ((claims += /WITH claimed AS/.test(sql) ? 1 : 0), base.query(sql, params)) } as Transactional<EntityManager>;
    const poller = timersOn({ pollIntervalMs: 20, pollIdleMaxMs: 1_500 }, counting);
    poller.start(handlers);
    try {
      await sleep(2_000);
      expect(claims).toBeLessThan(12); // 100 at a fixed 20 ms
      // Its own timer wakes it: long before the idle pause would have ended.
      const started = Date.now();
      const [own] = await scheduleDue(poller, 1);
      await eventually(async () => (await db.dataSource.query(`SELECT 1 FROM svc.effects WHERE timer_id = $1`, [own])).length === 1, { what: 'own timer', timeoutMs: 1_000 });
      expect(Date.now() - started).toBeLessThan(300);
      // Another process's timer: found by the idle poll, within its bound.
      await sleep(1_000);
      const [foreign] = await scheduleDue(timersOn(), 1);
      await eventually(async () => (await db.dataSource.query(`SELECT 1 FROM svc.effects WHERE timer_id = $1`, [foreign])).length === 1, { what: 'foreign timer', timeoutMs: 3_000 });
    } finally {
      await poller.stop();
    }
  });

  it('fires a timer scheduled before a restart, once, after the restart', async () => {
    const before = new DurableTimers(asTransactional(db.dataSource), 'svc', { timeScale: 0.001, pollIntervalMs: 20 });
    // "6 minutes" at SANDBOX_TIME_SCALE=0.001 is 360 ms.
    const id = await db.dataSource.transaction((tx) => before.schedule(tx, { name: 'quote.expire', delayMs: 360_000, streamId: 'Quote:1' }));
    await db.dataSource.destroy(); // the process goes away before the timer is due

    await db.dataSource.initialize();
    const after = new DurableTimers(asTransactional(db.dataSource), 'svc', { timeScale: 0.001, pollIntervalMs: 20 });
    after.start(handlers);
    try {
      await eventually(async () => (await db.dataSource.query(`SELECT 1 FROM svc.effects WHERE timer_id = $1`, [id])).length === 1, { what: 'timer effect' });
      expect(await after.fireDue(handlers)).toBe(0);
      expect(await effects()).toBe(1);
    } finally {
      await after.stop();
    }
  });

  it('scales delays by SANDBOX_TIME_SCALE and does not fire early', async () => {
    const timers = new DurableTimers(asTransactional(db.dataSource), 'svc', { timeScale: 1 });
    await db.dataSource.transaction((tx) => timers.schedule(tx, { name: 'quote.expire', delayMs: 60_000 }));
    expect(await timers.fireDue(handlers)).toBe(0);
    const [row] = await db.dataSource.query(`SELECT extract(epoch from due_at - created_at) AS s FROM svc.timers`);
    expect(Number(row.s)).toBeGreaterThan(59);
    expect(Number(row.s)).toBeLessThan(61);
  });

  it('does not scale a realTime delay (a deadline the caller chose, e.g. a hold expiry)', async () => {
    const timers = new DurableTimers(asTransactional(db.dataSource), 'svc', { timeScale: 0.001 });
    await db.dataSource.transaction((tx) => timers.schedule(tx, { name: 'quote.expire', delayMs: 60_000, realTime: true }));
    expect(await timers.fireDue(handlers)).toBe(0);
    const [row] = await db.dataSource.query(`SELECT extract(epoch from due_at - created_at) AS s FROM svc.timers`);
    expect(Number(row.s)).toBeGreaterThan(59);
    expect(Number(row.s)).toBeLessThan(61);
  });

  it('keeps a timer whose handler fails, records the error and fires it on a later try', async () => {
    const timers = timersOn({ retryDelayMaxMs: 1 });
    const [id] = await scheduleDue(timers, 1);
    let failures = 1;
    const flaky = {
      'quote.expire': async (timer: TimerRow) => {
        if (failures-- > 0) throw new Error('rail unavailable');
        await effect(timer);
      },
    };
    expect(await timers.fireDue(flaky)).toBe(0);
    const [failed] = await db.dataSource.query(`SELECT attempts, last_error, fired_at, locked_until FROM svc.timers WHERE id = $1`, [id]);
    expect(failed).toEqual({ attempts: 1, last_error: 'rail unavailable', fired_at: null, locked_until: null });
    await eventually(async () => (await timers.fireDue(flaky)) === 1, { what: 'retry' });
    expect(await effects()).toBe(1);
  });

  it('fires due timers concurrently: each handler waits for the other to start', async () => {
    const timers = timersOn();
    await scheduleDue(timers, 2);
    const bothStarted = barrier(2);
    const waiting = { 'quote.expire': async (timer: TimerRow) => (await bothStarted(), await effect(timer)) };
    expect(await timers.fireDue(waiting)).toBe(2);
    expect(await effects()).toBe(2);
  });

  it('runs at most `concurrency` handlers at once and refills the free slots until the backlog is gone', async () => {
    const timers = timersOn({ concurrency: 3 });
    await scheduleDue(timers, 10);
    let inFlight = 0;
    let inFlightMax = 0;
    const slow = {
      'quote.expire': async (timer: TimerRow) => {
        inFlightMax = Math.max(inFlightMax, ++inFlight);
        await sleep(30);
        await effect(timer);
        inFlight--;
      },
    };
    expect(await timers.fireDue(slow)).toBe(10);
    expect(inFlightMax).toBe(3);
    expect(await effects()).toBe(10);
  });

  it('fires a timer claimed by a process that died again once its lease ran out, and not before', async () => {
    let alive = true;
    const base = asTransactional(db.dataSource);
    const dying: Transactional<EntityManager> = {
      query: (sql, parameters) => (alive ? base.query(sql, parameters) : Promise.reject(new Error('the process died'))),
      transaction: (work) => (alive ? base.transaction(work) : Promise.reject(new Error('the process died'))),
    };
    const first = timersOn({ leaseMs: 600 }, dying);
    const [id] = await scheduleDue(first, 1);
    let started!: () => void;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    const hung = first.fireDue({ 'quote.expire': () => (started(), new Promise<void>((resolve) => (release = resolve))) }).catch((e: Error) => e);
    await claimed;
    alive = false; // from here on it neither renews its lease nor records an outcome
    const [{ remaining_ms }] = await db.dataSource.query(`SELECT extract(epoch FROM locked_until - now()) * 1000 AS remaining_ms FROM svc.timers WHERE id = $1`, [id]);
    const diedAt = Date.now();

    const second = timersOn({ leaseMs: 600 });
    const runs: number[] = [];
    const recording = { 'quote.expire': async (timer: TimerRow) => (runs.push(timer.attempts), await effect(timer)) };
    expect(await second.fireDue(recording)).toBe(0); // the lease still stands
    expect(runs).toEqual([]);
    await eventually(async () => (await second.fireDue(recording)) === 1, { what: 'the timer firing after the lease', intervalMs: 20 });
    expect(Date.now() - diedAt).toBeGreaterThanOrEqual(Number(remaining_ms) - 50);
    expect(runs).toEqual([2]); // the second claim of the timer
    expect(await db.dataSource.query(`SELECT attempts, fired_at IS NOT NULL AS fired FROM svc.timers WHERE id = $1`, [id])).toEqual([{ attempts: 2, fired: true }]);

    release();
    expect(await hung).toEqual(new Error('the process died'));
    expect(await effects()).toBe(1);
  });

  it('two pollers on one table never run a timer twice, even when handlers outlast the lease', async () => {
    const pollers = [timersOn({ concurrency: 4, leaseMs: 150 }), timersOn({ concurrency: 4, leaseMs: 150 })];
    const ids = await scheduleDue(pollers[0], 24);
    const slowOnes = new Set(ids.slice(0, 4)); // run longer than a lease: only its renewal keeps them single
    const running = new Set<string>();
    const overlaps: string[] = [];
    const runs = new Map<string, number>();
    const tracked = {
      'quote.expire': async (timer: TimerRow) => {
        if (running.has(timer.id)) overlaps.push(timer.id);
        running.add(timer.id);
        runs.set(timer.id, (runs.get(timer.id) ?? 0) + 1);
        await sleep(slowOnes.has(timer.id) ? 500 : 10);
        running.delete(timer.id);
        await effect(timer);
      },
    };
    const fired = await Promise.all([pollers[0].fireDue(tracked), pollers[1].fireDue(tracked), sleep(200).then(() => pollers[1].fireDue(tracked))]);
    expect(fired.reduce((a, b) => a + b, 0)).toBe(24);
    expect(overlaps).toEqual([]);
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    expect(runs.size).toBe(24);
    expect(await effects()).toBe(24);
  });

  it('postpones a failing timer with backoff while the others claimed with it fire', async () => {
    const timers = timersOn();
    const fine = await scheduleDue(timers, 3);
    const [flakyId] = await scheduleDue(timers, 1, 'flaky');
    let failures = 1;
    const mixed = {
      ...handlers,
      flaky: async (timer: TimerRow) => {
        if (failures-- > 0) throw new Error('peer unavailable');
        await effect(timer);
      },
    };
    expect(await timers.fireDue(mixed)).toBe(3);
    expect(await db.dataSource.query(`SELECT 1 FROM svc.effects WHERE timer_id = ANY($1)`, [fine])).toHaveLength(3);
    const [postponed] = await db.dataSource.query(
      `SELECT attempts, last_error, fired_at, extract(epoch FROM due_at - now()) * 1000 AS in_ms FROM svc.timers WHERE id = $1`,
      [flakyId],
    );
    expect(postponed).toMatchObject({ attempts: 1, last_error: 'peer unavailable', fired_at: null });
    expect(Number(postponed.in_ms)).toBeGreaterThan(100); // 100 ms × 2^attempts
    expect(Number(postponed.in_ms)).toBeLessThanOrEqual(200);
    expect(await timers.fireDue(mixed)).toBe(0); // not due again yet
    await eventually(async () => (await timers.fireDue(mixed)) === 1, { what: 'the retry' });
    expect(await effects()).toBe(4);
  });

  it('retries a timer whose handler said by when it can go on no later than that, however far its backoff has grown', async () => {
    const timers = timersOn();
    const [id] = await scheduleDue(timers, 1);
    const waits: (number | undefined)[] = [1_500, 1_500, undefined];
    const leased = { 'quote.expire': async (timer: TimerRow) => {
      if (waits.length > 0) throw new TimerNotYet('another writer holds the lease', waits.shift());
      await effect(timer);
    } };
    const inMs = async () => Number((await db.dataSource.query(`SELECT extract(epoch FROM due_at - now()) * 1000 AS in_ms FROM svc.timers WHERE id = $1`, [id]))[0].in_ms);
    const claimedBefore = (attempts: number) => db.dataSource.query(`UPDATE svc.timers SET due_at = now(), attempts = $2 WHERE id = $1`, [id, attempts]);
    // A first try: the backoff (200 ms) is sooner than the lease's end.
    expect(await timers.fireDue(leased)).toBe(0);
    expect(await inMs()).toBeLessThanOrEqual(200);
    // Nine claims before: the backoff would be 51 s; the lease ends in 1.5 s.
    await claimedBefore(9);
    expect(await timers.fireDue(leased)).toBe(0);
    expect(await inMs()).toBeGreaterThan(1_300);
    expect(await inMs()).toBeLessThanOrEqual(1_500);
    // No moment given: the backoff alone.
    await claimedBefore(9);
    expect(await timers.fireDue(leased)).toBe(0);
    expect(await inMs()).toBeGreaterThan(50_000);
    await claimedBefore(0);
    expect(await timers.fireDue(leased)).toBe(1);
    expect(await effects()).toBe(1);
  });

  it('holds no transaction and no lock on the timer while a handler runs', async () => {
    const timers = timersOn();
    await scheduleDue(timers, 1); // one: a second handler's own short transactions would show up in the probe
    const seen: { idleInTransaction: number; locked: boolean }[] = [];
    const probing = {
      'quote.expire': async (timer: TimerRow) => {
        const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
        // The claim's row lock would make NOWAIT fail with lock_not_available.
        const locked = await db.dataSource
          .transaction((tx) => tx.query(`SELECT 1 FROM svc.timers WHERE id = $1 FOR UPDATE NOWAIT`, [timer.id]))
          .then(() => false, (e: { code?: string }) => e.code === '55P03');
        seen.push({ idleInTransaction: n, locked });
        await effect(timer);
      },
    };
    expect(await timers.fireDue(probing)).toBe(1);
    expect(seen).toEqual([{ idleInTransaction: 0, locked: false }]);
  });

  it('reports the backlog: how many timers are due and how long the oldest has waited', async () => {
    const timers = timersOn();
    expect(await timers.backlog()).toEqual({ due: 0, oldestDueMs: 0 });
    const [oldest] = await scheduleDue(timers, 3);
    await db.dataSource.transaction((tx) => timers.schedule(tx, { name: 'quote.expire', delayMs: 60_000, realTime: true }));
    await db.dataSource.query(`UPDATE svc.timers SET due_at = now() - interval '2 seconds' WHERE id = $1`, [oldest]);
    const backlog = await timers.backlog();
    expect(backlog.due).toBe(3);
    expect(backlog.oldestDueMs).toBeGreaterThanOrEqual(2_000);
    expect(backlog.oldestDueMs).toBeLessThan(3_000);
    await timers.fireDue(handlers);
    expect(await timers.backlog()).toEqual({ due: 0, oldestDueMs: 0 });
  });

  it('stop() claims nothing more and waits for the handlers already running', async () => {
    const timers = timersOn({ concurrency: 1, pollIntervalMs: 10 });
    await scheduleDue(timers, 2);
    let started!: () => void;
    const claimed = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    timers.start({ 'quote.expire': async (timer) => (started(), await new Promise<void>((resolve) => (release = resolve)), await effect(timer)) });
    await claimed;
    let stopped = false;
    const stopping = timers.stop().then(() => (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(await effects()).toBe(1);
    expect(await timers.backlog()).toMatchObject({ due: 1 });
  });
});
