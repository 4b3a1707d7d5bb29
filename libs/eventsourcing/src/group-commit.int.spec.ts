import type { EntityManager } from 'typeorm';
import { CommandExecutor, CommandRequest } from './command-executor';
import { Decider, DomainError } from './decider';
import { PostgresEventStore } from './event-store';
import { Transactional } from './migrations';
import { openTestServiceDb, TestServiceDb } from './test-service-db';
import { asTransactional } from './typeorm';
import { IF_APPENDED, Statement } from './sql';

type Added = { type: 'Added.v1'; data: { by: number } };
type Add = { by: number; max: number; failProjection?: boolean };
const counter: Decider<number, Add, Added> = {
  initialState: 0,
  decide: (c, s) => (s + c.by > c.max ? new DomainError('LIMIT_REACHED', `would pass ${c.max}`) : [{ type: 'Added.v1', data: { by: c.by } }]),
  evolve: (s, e) => s + e.data.by,
};

/** Concurrent commands through one executor: written in shared transactions, each answered as if alone. */
describe('group commit (CommandExecutor.execute under concurrency, real PostgreSQL)', () => {
  let db: TestServiceDb;
  const store = new PostgresEventStore('gc');
  let transactions = 0;
  let executor: CommandExecutor<EntityManager>;

  beforeAll(async () => {
    db = await openTestServiceDb('gc');
    await db.dataSource.query('CREATE TABLE gc.totals (stream_id text PRIMARY KEY, total int NOT NULL, CHECK (total < 1000))');
    const counted: Transactional<EntityManager> = { ...asTransactional(db.dataSource), transaction: (work) => (transactions++, asTransactional(db.dataSource).transaction(work)) };
    executor = new CommandExecutor(counted, store, 5, 100, { groupsInFlightMax: 2, groupSizeMax: 64 });
  });
  afterAll(() => db.close());

  const add = (streamId: string, by: number, max = 10_000, extra: Partial<CommandRequest<EntityManager, number, Add, Added>> = {}) =>
    executor.execute({
      decider: counter,
      streamId,
      command: { by, max },
      project: (tx, _events, total) => tx.query('INSERT INTO gc.totals VALUES ($1, $2) ON CONFLICT (stream_id) DO UPDATE SET total = $2', [streamId, total]),
      ...extra,
    });

  it('writes 64 concurrent commands on 64 streams in far fewer transactions, each answered with its own result', async () => {
    transactions = 0;
    const results = await Promise.all(Array.from({ length: 64 }, (_, i) => add(`Spread:${i}`, i + 1)));
    expect(results.map((r) => [r.state, r.version, r.events.length])).toEqual(Array.from({ length: 64 }, (_, i) => [i + 1, 1, 1]));
    expect(transactions).toBeLessThan(16);
    const rows = await db.dataSource.query(`SELECT count(*)::int AS n FROM gc.events WHERE stream_id LIKE 'Spread:%'`);
    expect(rows[0].n).toBe(64);
  });

  it('decides a hot stream\'s concurrent commands in arrival order against one fold: versions 1..n, nothing lost', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => add('Hot:1', 2)));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const r of results) expect(r.state).toBe(2 * r.version); // the state after its own command, not the group's
    const stream = await store.readStream(db.dataSource, 'Hot:1');
    expect(stream.map((e) => e.streamVersion)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await db.dataSource.query(`SELECT total FROM gc.totals WHERE stream_id = 'Hot:1'`))[0].total).toBe(100);
  });

  it('refuses exactly the commands past the limit on a hot stream; the rest commit', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, () => add('Hot:limit', 1, 20)));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await store.readStream(db.dataSource, 'Hot:limit')).toHaveLength(20);
  });

  it('lets one command whose projection fails fail alone: the others of its group commit', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => add(`Mixed:${i}`, i === 7 ? 5_000 : 1)));
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
    expect((outcomes[7] as PromiseRejectedResult).reason).toMatchObject({ message: expect.stringContaining('totals_total_check') });
    expect(await store.readStream(db.dataSource, 'Mixed:7')).toEqual([]); // its event rolled back with its projection
    for (const i of [0, 6, 8, 19]) expect(await store.readStream(db.dataSource, `Mixed:${i}`)).toHaveLength(1);
  });

  it('projects a group\'s commands that share a set-based projection in one call, in the append\'s statement, each stream at its latest state', async () => {
    const calls: number[] = [];
    const projectAlongside = (items: readonly { streamId: string; stateAfter: number }[]): Statement[] => {
      calls.push(items.length);
      const latest = new Map(items.map((i) => [i.streamId, i.stateAfter]));
      return [{ sql: `INSERT INTO gc.totals SELECT * FROM unnest($1::text[], $2::int[]) WHERE ${IF_APPENDED} ON CONFLICT (stream_id) DO UPDATE SET total = excluded.total`, params: [[...latest.keys()], [...latest.values()]] }];
    };
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => executor.execute({ decider: counter, streamId: `Batch:${i % 10}`, command: { by: 1, max: 100 }, projectAlongside })));
    expect(results).toHaveLength(40);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(40); // every command projected once
    expect(calls.length).toBeLessThan(20); // in far fewer calls than commands
    const rows = await db.dataSource.query(`SELECT total FROM gc.totals WHERE stream_id LIKE 'Batch:%'`);
    expect(rows.map((r: { total: number }) => r.total)).toEqual(Array(10).fill(4));
  });

  it('completes a group\'s commands that share completeAll in one call, in the group\'s transaction, each decided as completed', async () => {
    const calls: number[] = [];
    // Doubles each command's amount, as a lookup would fill a field in: one call per group, not one per command.
    const completeAll = async (tx: EntityManager, commands: readonly Add[]) => {
      calls.push(commands.length);
      await tx.query('SELECT 1');
      return commands.map((c) => ({ ...c, by: c.by * 2 }));
    };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => add(`Complete:${i}`, i + 1, 10_000, { completeAll })));
    expect(results.map((r) => r.state)).toEqual(Array.from({ length: 20 }, (_, i) => 2 * (i + 1)));
    expect(calls.reduce((a, b) => a + b, 0)).toBe(20);
    expect(calls.length).toBeLessThan(20);
  });

  it('answers CONFLICT for a new stream that exists, without failing its group', async () => {
    await add('Taken:1', 1);
    const outcomes = await Promise.allSettled([add('Taken:1', 1, 10_000, { newStream: true }), ...Array.from({ length: 10 }, (_, i) => add(`Free:${i}`, 1, 10_000, { newStream: true }))]);
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { code: 'CONFLICT' } });
    expect(outcomes.slice(1).every((o) => o.status === 'fulfilled')).toBe(true);
    expect(await store.readStream(db.dataSource, 'Taken:1')).toHaveLength(1);
  });
});

/** The group path trusts cached folds: its append guard is what keeps a stale one from deciding anything. */
describe('group commit with a stale cached fold (real PostgreSQL)', () => {
  let db: TestServiceDb;
  const store = new PostgresEventStore('gcs');
  const reads: string[] = [];

  beforeAll(async () => {
    db = await openTestServiceDb('gcs');
  });
  afterAll(() => db.close());

  const executorOn = () => {
    const base = asTransactional(db.dataSource);
    // Every statement the executor sends, to see which commands read their stream.
    const spied: Transactional<EntityManager> = {
      ...base,
      transaction: (work) => base.transaction((tx) => work(new Proxy(tx, { get: (t, k) => (k === 'query' ? (sql: string, p?: unknown[]) => (reads.push(sql), t.query(sql, p)) : Reflect.get(t, k)) }))),
    };
    return new CommandExecutor(spied, store, 5, 100, { groupsInFlightMax: 1, groupSizeMax: 64 });
  };
  const add = (executor: CommandExecutor<EntityManager>, streamId: string, by: number) => executor.execute({ decider: counter, streamId, command: { by, max: 1_000_000 } });
  const eventReads = () => reads.filter((sql) => /FROM\s+"?gcs"?\.events/.test(sql) && /^\s*SELECT/i.test(sql)).length;

  it('decides on the stream as stored after another process wrote it: nothing lost, versions 1..n', async () => {
    const mine = executorOn();
    const other = executorOn(); // another process: its own cache
    await Promise.all([add(mine, 'Shared:1', 1), add(mine, 'Shared:2', 1)]);
    await add(other, 'Shared:1', 100); // mine's cached fold of Shared:1 is now stale
    const results = await Promise.all([add(mine, 'Shared:1', 1), add(mine, 'Shared:1', 1), add(mine, 'Shared:2', 1)]);
    expect(results.map((r) => r.state)).toEqual([102, 103, 2]);
    expect((await store.readStream(db.dataSource, 'Shared:1')).map((e) => e.streamVersion)).toEqual([1, 2, 3, 4]);
  });

  it('does not refuse on a stale fold what the stream as stored allows (another process lowered it), grouped or alone', async () => {
    const mine = executorOn();
    const other = executorOn();
    const limited = (executor: CommandExecutor<EntityManager>, streamId: string, by: number) => executor.execute({ decider: counter, streamId, command: { by, max: 10 } });
    await Promise.all([limited(mine, 'Limit:1', 10), limited(mine, 'Limit:2', 10)]);
    await Promise.all([limited(other, 'Limit:1', -5), limited(other, 'Limit:2', -5)]); // mine still folds both at 10
    const grouped = await Promise.all([limited(mine, 'Limit:1', 3), limited(mine, 'Limit:3', 1)]);
    expect(grouped.map((r) => r.state)).toEqual([8, 1]);
    expect((await limited(mine, 'Limit:2', 3)).state).toBe(8); // alone
    await expect(limited(mine, 'Limit:2', 3)).rejects.toMatchObject({ code: 'LIMIT_REACHED' }); // a refusal on a current fold stands
  });

  it('does not answer "already done" from a fold cached past a rollback: the step is taken, grouped or alone', async () => {
    type Marked = { type: 'Marked.v1'; data: { mark: string } };
    const marks: Decider<string[], { mark: string }, Marked> = {
      initialState: [],
      decide: (c, s) => (s.includes(c.mark) ? [] : [{ type: 'Marked.v1', data: { mark: c.mark } }]), // idempotent
      evolve: (s, e) => [...s, e.data.mark],
    };
    const mine = executorOn();
    const mark = (streamId: string, m: string) => mine.execute({ decider: marks, streamId, command: { mark: m } });
    await Promise.all([mark('Marks:1', 'a'), mark('Marks:2', 'a')]);
    for (const streamId of ['Marks:1', 'Marks:2']) {
      // A consumer's transaction marks "b", then rolls back: the cache saw "b", the database never did.
      await expect(db.dataSource.transaction(async (tx) => {
        await mine.decideAndAppend(tx, { decider: marks, streamId, command: { mark: 'b' } });
        throw new Error('rolled back after the append');
      })).rejects.toThrow('rolled back');
    }
    const [grouped] = await Promise.all([mark('Marks:1', 'b'), mark('Marks:3', 'a')]);
    expect(grouped.state).toEqual(['a', 'b']);
    expect((await mark('Marks:2', 'b')).state).toEqual(['a', 'b']); // alone
    for (const streamId of ['Marks:1', 'Marks:2']) expect((await store.readStream(db.dataSource, streamId)).map((e) => (e.data as { mark: string }).mark)).toEqual(['a', 'b']);
  });

  it('reads no events for commands on streams it just wrote (a hot stream costs no tail read)', async () => {
    const mine = executorOn();
    await Promise.all([add(mine, 'Warm:1', 1), add(mine, 'Warm:2', 1)]);
    reads.length = 0;
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => add(mine, `Warm:${1 + (i % 2)}`, 1)));
    expect(results.map((r) => r.state).sort((a, b) => a - b)).toEqual([2, 2, 3, 3, 4, 4, 5, 5, 6, 6]);
    expect(eventReads()).toBe(0);
  });
});
