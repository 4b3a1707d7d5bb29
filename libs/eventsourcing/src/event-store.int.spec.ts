import { Client } from 'pg';
import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { asTransactional } from './typeorm';
import { CommandExecutor } from './command-executor';
import { Decider, DomainError } from './decider';
import { PostgresEventStore, RecordedEvent, WrongExpectedVersionError } from './event-store';
import { LOG_START } from './log-reader';
import { APPENDED_ALL, Statement, withAlongside } from './sql';

type CounterEvent = { type: 'Incremented.v1'; data: { by: number } };
type CounterCommand = { type: 'Increment'; by: number; max: number };
const counter: Decider<number, CounterCommand, CounterEvent> = {
  initialState: 0,
  decide: (c, s) => (s + c.by > c.max ? new DomainError('LIMIT_REACHED', 'counter limit') : [{ type: 'Incremented.v1', data: { by: c.by } }]),
  evolve: (s, e) => s + e.data.by,
};

describe('PostgresEventStore (real PostgreSQL)', () => {
  let db: TestServiceDb;
  const store = new PostgresEventStore('svc');

  beforeAll(async () => {
    db = await openTestServiceDb('svc');
  });
  afterAll(() => db.close());

  it('appends with an expected version and reads the stream back in order', async () => {
    const first = await store.append(db.dataSource, 'Counter:a', 'no_stream', [{ type: 'Incremented.v1', data: { by: 1 } }], { platformId: 'P1' });
    await store.append(db.dataSource, 'Counter:a', 1, [
      { type: 'Incremented.v1', data: { by: 2 } },
      { type: 'Incremented.v1', data: { by: 3 } },
    ]);
    const stream = await store.readStream(db.dataSource, 'Counter:a');
    expect(stream.map((e) => [e.streamVersion, (e.data as { by: number }).by])).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(first[0].platformId).toBe('P1');
    await expect(store.append(db.dataSource, 'Counter:a', 1, [{ type: 'Incremented.v1', data: { by: 9 } }])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(store.append(db.dataSource, 'Counter:a', 'no_stream', [{ type: 'Incremented.v1', data: { by: 9 } }])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(store.append(db.dataSource, 'Counter:a', 7, [{ type: 'Incremented.v1', data: { by: 9 } }])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await store.readStream(db.dataSource, 'Counter:a')).toHaveLength(3);
  });

  it('writes read models alongside an append in its one statement, and nothing of them when a guard refuses the append', async () => {
    await db.dataSource.query(`CREATE TABLE svc.parents (id text PRIMARY KEY); CREATE TABLE svc.children (id text PRIMARY KEY, parent text NOT NULL REFERENCES svc.parents (id))`);
    const gated = 'WHERE EXISTS (SELECT 1 FROM ' + APPENDED_ALL + ')';
    // The child names a parent inserted by the same statement: the foreign key is checked at its end.
    const rows = (n: string): Statement[] => [
      { sql: `INSERT INTO svc.parents (id) SELECT $1 ${gated}`, params: [`p${n}`] },
      { sql: `INSERT INTO svc.children (id, parent) SELECT $1, $2 ${gated}`, params: [`c${n}`, `p${n}`] },
    ];
    const [[first]] = await store.appendMany(db.dataSource, [{ streamId: 'Alongside:a', after: 0, events: [{ type: 'Incremented.v1', data: { by: 1 } }], guard: { version: 0 } }], rows('1'));
    expect((await db.dataSource.query(`SELECT parent FROM svc.children`)).map((r: { parent: string }) => r.parent)).toEqual(['p1']);
    // A stale guard (the event at version 1 is another): nothing goes in, and an orphan child's foreign key does not
    // hide the refusal, because the gated rows are never written.
    const orphan: Statement = { sql: `INSERT INTO svc.children (id, parent) SELECT 'c2', 'nobody' ${gated}`, params: [] };
    await expect(store.appendMany(db.dataSource, [{ streamId: 'Alongside:a', after: 1, events: [{ type: 'Incremented.v1', data: { by: 1 } }], guard: { version: 1, eventId: '00000000-0000-7000-8000-000000000000' } }], [orphan])).rejects.toBeInstanceOf(WrongExpectedVersionError);
    await expect(store.append(db.dataSource, 'Alongside:a', 1, [{ type: 'Incremented.v1', data: { by: 1 } }], { expectedLastEventId: '00000000-0000-7000-8000-000000000000', alongside: [orphan] })).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect((await db.dataSource.query(`SELECT id FROM svc.children ORDER BY id`)).map((r: { id: string }) => r.id)).toEqual(['c1']);
    // The single-stream append takes them too.
    await store.append(db.dataSource, 'Alongside:a', 1, [{ type: 'Incremented.v1', data: { by: 1 } }], { expectedLastEventId: first.eventId, alongside: rows('3') });
    expect((await db.dataSource.query(`SELECT id FROM svc.children ORDER BY id`)).map((r: { id: string }) => r.id)).toEqual(['c1', 'c3']);
  });

  it('lets exactly one concurrent append win per version', async () => {
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => db.dataSource.transaction((tx) => store.append(tx, 'Counter:race', 0, [{ type: 'Incremented.v1', data: { by: i } }]))),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(attempts.filter((a) => a.status === 'rejected' && a.reason instanceof WrongExpectedVersionError)).toHaveLength(9);
    expect(await store.readStream(db.dataSource, 'Counter:race')).toHaveLength(1);
  });

  it('retries a losing writer so every concurrent command lands once, in version order', async () => {
    const executor = new CommandExecutor(asTransactional(db.dataSource), store, 50);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => executor.execute({ decider: counter, streamId: 'Counter:retry', command: { type: 'Increment', by: 1, max: 1000 } })),
    );
    const versions = results.map((r) => r.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const stream = await store.readStream(db.dataSource, 'Counter:retry');
    expect(stream.map((e) => e.streamVersion)).toEqual(versions);
  });

  it('queues concurrent writers of one stream: no conflicts even with no retries allowed', async () => {
    const executor = new CommandExecutor(asTransactional(db.dataSource), store, 0);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => executor.execute({ decider: counter, streamId: 'Counter:queued', command: { type: 'Increment', by: 1, max: 1000 } })),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await store.readStream(db.dataSource, 'Counter:queued')).toHaveLength(8);
  });

  it('writes a command on a new stream without reading it, and refuses one on a stream that exists (CONFLICT)', async () => {
    const executor = new CommandExecutor(asTransactional(db.dataSource), store, 0);
    const created = await executor.execute({ decider: counter, streamId: 'Counter:new', newStream: true, command: { type: 'Increment', by: 2, max: 10 } });
    expect(created).toMatchObject({ state: 2, version: 1 });
    const again = await executor.execute({ decider: counter, streamId: 'Counter:new', newStream: true, command: { type: 'Increment', by: 5, max: 10 } }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(WrongExpectedVersionError);
    expect((again as DomainError).code).toBe('CONFLICT');
    expect((await store.readStream(db.dataSource, 'Counter:new')).map((e) => e.data)).toEqual([{ by: 2 }]);
  });

  it('retries when a writer outside the write path appends in between, and answers CONFLICT (409) past the bound', async () => {
    // A store whose read is followed by someone else's append on another connection, once per arming.
    let interfere = 0;
    const meddling: typeof store = Object.assign(Object.create(store), {
      readStream: async (tx: Parameters<typeof store.readStream>[0], streamId: string) => {
        const history = await store.readStream(tx, streamId);
        if (interfere-- > 0) await store.append(db.dataSource, streamId, 'any', [{ type: 'Incremented.v1', data: { by: 100 } }]);
        return history;
      },
    });
    interfere = 1;
    const patient = new CommandExecutor(asTransactional(db.dataSource), meddling, 1);
    const done = await patient.execute({ decider: counter, streamId: 'Counter:meddled', command: { type: 'Increment', by: 1, max: 1000 } });
    expect(done.state).toBe(101); // the retry saw the other writer's event
    interfere = 1;
    const impatient = new CommandExecutor(asTransactional(db.dataSource), meddling, 0);
    await expect(impatient.execute({ decider: counter, streamId: 'Counter:meddled', command: { type: 'Increment', by: 1, max: 1000 } })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await store.readStream(db.dataSource, 'Counter:meddled')).map((e) => (e.data as { by: number }).by)).toEqual([100, 1, 100]);
  });

  it('rolls back the projection with the append when the decider refuses', async () => {
    await db.dataSource.query(`CREATE TABLE IF NOT EXISTS svc.counter_view (id text primary key, total int)`);
    const executor = new CommandExecutor(asTransactional(db.dataSource), store);
    const project = async (tx: { query: (s: string, p: unknown[]) => Promise<unknown> }, _e: readonly RecordedEvent[], total: number) => {
      await tx.query(`INSERT INTO svc.counter_view VALUES ('c', $1) ON CONFLICT (id) DO UPDATE SET total = $1`, [total]);
    };
    await executor.execute({ decider: counter, streamId: 'Counter:p', command: { type: 'Increment', by: 5, max: 6 }, project });
    await expect(executor.execute({ decider: counter, streamId: 'Counter:p', command: { type: 'Increment', by: 5, max: 6 }, project })).rejects.toMatchObject({
      code: 'LIMIT_REACHED',
    });
    expect(await db.dataSource.query(`SELECT total FROM svc.counter_view`)).toEqual([{ total: 5 }]);
    expect(await store.readStream(db.dataSource, 'Counter:p')).toHaveLength(1);
  });

  it('keeps folded states of hot streams, yet never serves a rolled-back append or misses another writer\'s event', async () => {
    const executor = new CommandExecutor(asTransactional(db.dataSource), store);
    const other = new CommandExecutor(asTransactional(db.dataSource), store); // another process: its own cache
    const inc = (by: number) => ({ decider: counter, streamId: 'Counter:cached', command: { type: 'Increment' as const, by, max: 1_000_000 } });
    expect((await executor.execute(inc(1))).state).toBe(1);
    // An append whose transaction rolls back afterwards: the cache saw state 11, the database never did.
    await expect(
      db.dataSource.transaction(async (tx) => {
        await executor.decideAndAppend(tx, inc(10));
        throw new Error('rolled back after the append');
      }),
    ).rejects.toThrow('rolled back');
    expect((await executor.execute(inc(1))).state).toBe(2);
    // Another writer at the same versions the cache had seen: its events are the ones folded.
    await expect(
      db.dataSource.transaction(async (tx) => {
        await executor.decideAndAppend(tx, inc(100));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await other.execute(inc(1000))).state).toBe(1002);
    const after = await executor.execute(inc(1));
    expect(after).toMatchObject({ state: 1003, version: 4 });
    expect((await store.readStream(db.dataSource, 'Counter:cached')).map((e) => (e.data as { by: number }).by)).toEqual([1, 1, 1000, 1]);
  });

  it('shows a global-log reader every event exactly once although 24 writers commit out of order', async () => {
    const writers = 24;
    const clients = await Promise.all(Array.from({ length: writers }, async () => {
      const c = new Client({ connectionString: db.database.url });
      await c.connect();
      return c;
    }));
    const seen: string[] = [];
    let checkpoint = LOG_START;
    let writing = true;
    const reader = (async () => {
      // A tight subscriber loop: advance the checkpoint to the last position it saw, as a relay does.
      while (writing || seen.length < writers * 2) {
        const { events: batch, next } = await store.readAll(db.dataSource, checkpoint, 1000);
        for (const e of batch) seen.push(e.eventId);
        checkpoint = next;
        if (!writing && batch.length === 0) break;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    // Every writer takes its positions first; they then commit in reverse order, newest position first.
    for (const [i, c] of clients.entries()) {
      await c.query('BEGIN');
      await store.append(c, `Ooo:${i}`, 'no_stream', [
        { type: 'Incremented.v1', data: { by: i } },
        { type: 'Incremented.v1', data: { by: i } },
      ]);
    }
    for (const c of [...clients].reverse()) {
      await c.query('COMMIT');
      await new Promise((r) => setTimeout(r, 5));
    }
    writing = false;
    await reader;
    await Promise.all(clients.map((c) => c.end()));
    const written: { event_id: string }[] = await db.dataSource.query(`SELECT event_id FROM svc.events WHERE stream_id LIKE 'Ooo:%'`);
    const seenOoo = seen.filter((id) => written.some((w) => w.event_id === id));
    expect(new Set(seenOoo).size).toBe(seenOoo.length);
    expect(seenOoo.sort()).toEqual(written.map((w) => w.event_id).sort());
  });
});

describe('withAlongside', () => {
  it('numbers the alongside parameters after the main statement and its gate, and refuses a nested WITH', () => {
    const { sql, params } = withAlongside({ sql: 'INSERT INTO a VALUES ($1, $2) RETURNING *', params: ['x', 'y'] }, [{ sql: 'UPDATE b SET v = $1 WHERE k = $2', params: [1, 2] }], 1);
    expect(sql).toContain('UPDATE b SET v = $4 WHERE k = $5');
    expect(sql).toContain('= $3::bigint');
    expect(params).toEqual(['x', 'y', 1, 1, 2]);
    expect(withAlongside({ sql: 'INSERT', params: [] }, [], 1)).toEqual({ sql: 'INSERT', params: [] });
    expect(() => withAlongside({ sql: 'INSERT', params: [] }, [{ sql: 'WITH d AS (DELETE FROM t) SELECT 1', params: [] }], 1)).toThrow('WITH');
  });
});
