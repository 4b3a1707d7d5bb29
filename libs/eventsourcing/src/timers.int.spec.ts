import type { EntityManager } from 'typeorm';
import { eventually } from '@payments/testing';
import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { asTransactional } from './typeorm';
import { DurableTimers, TimerRow } from './timers';

describe('DurableTimers (real PostgreSQL)', () => {
  let db: TestServiceDb;

  beforeEach(async () => {
    db = await openTestServiceDb('svc');
    await db.dataSource.query(`CREATE TABLE svc.effects (timer_id uuid primary key, fired_at timestamptz default now())`);
  });
  afterEach(() => db.close());

  const handlers = {
    'quote.expire': async (tx: EntityManager, timer: TimerRow) => {
      await tx.query(`INSERT INTO svc.effects (timer_id) VALUES ($1)`, [timer.id]);
    },
  };

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
      expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM svc.effects`)).toEqual([{ n: 1 }]);
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
    const timers = new DurableTimers(asTransactional(db.dataSource), 'svc', { timeScale: 0, retryDelayMaxMs: 1 });
    const id = await db.dataSource.transaction((tx) => timers.schedule(tx, { name: 'quote.expire', delayMs: 0 }));
    let failures = 1;
    const flaky = {
      'quote.expire': async (tx: EntityManager, timer: TimerRow) => {
        await handlers['quote.expire'](tx, timer);
        if (failures-- > 0) throw new Error('rail unavailable');
      },
    };
    expect(await timers.fireDue(flaky)).toBe(0);
    const [failed] = await db.dataSource.query(`SELECT attempts, last_error, fired_at FROM svc.timers WHERE id = $1`, [id]);
    expect(failed).toMatchObject({ attempts: 1, last_error: 'rail unavailable', fired_at: null });
    expect(await db.dataSource.query(`SELECT 1 FROM svc.effects`)).toHaveLength(0); // the failed attempt left no effect
    await eventually(async () => (await timers.fireDue(flaky)) === 1, { what: 'retry' });
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM svc.effects`)).toEqual([{ n: 1 }]);
  });
});
