import fc from 'fast-check';
import { Client } from 'pg';
import { loadCheckpoint, storeCheckpoint } from './checkpoints';
import { PostgresEventStore } from './event-store';
import { LOG_START, LogCursor } from './log-reader';
import { openTestServiceDb, TestServiceDb } from './test-service-db';

/**
 * The global-log reader against transactions whose xid order and position order disagree: a transaction that took
 * its xid early (it wrote something else first) inserts its event after a younger transaction did, and commits first.
 */
describe('global-log reader (real PostgreSQL)', () => {
  let db: TestServiceDb;
  let clients: Client[];
  const store = new PostgresEventStore('svc');
  const event = (tag: string) => [{ type: 'Happened.v1', data: { tag } }];

  beforeAll(async () => {
    db = await openTestServiceDb('svc');
    clients = await Promise.all(Array.from({ length: 8 }, async () => {
      const c = new Client({ connectionString: db.database.url });
      await c.connect();
      return c;
    }));
  });
  afterAll(async () => {
    await Promise.all((clients ?? []).map((c) => c.end()));
    await db?.close();
  });

  /** A relay's loop in miniature: read after the stored checkpoint, remember, store the next checkpoint. */
  const poll = async (name: string, seen: string[]): Promise<number> => {
    const { events, next } = await store.readAll(db.dataSource, await loadCheckpoint(db.dataSource, 'svc', name), 1000);
    seen.push(...events.map((e) => (e.data as { tag: string }).tag));
    await storeCheckpoint(db.dataSource, 'svc', name, next);
    return events.length;
  };

  it('sees an event whose transaction took its xid first but inserted and committed after a younger one', async () => {
    const [older, younger] = clients;
    const seen: string[] = [];
    await older.query('BEGIN');
    await older.query('SELECT pg_current_xact_id()'); // the older transaction writes something else first: its xid is taken
    await younger.query('BEGIN');
    await store.append(younger, 'Young:1', 'no_stream', event('young')); // lower position, higher xid
    await store.append(older, 'Old:1', 'no_stream', event('old')); // higher position, lower xid
    await older.query('COMMIT');
    await poll('interleaving', seen); // the older commit is visible, the younger one is still running
    await younger.query('COMMIT');
    await poll('interleaving', seen);

    const rows = await db.dataSource.query(`SELECT data->>'tag' AS tag, global_position::int AS position, transaction_id::text::bigint AS xid FROM svc.events WHERE stream_id IN ('Young:1', 'Old:1') ORDER BY global_position`);
    expect(rows.map((r: { tag: string }) => r.tag)).toEqual(['young', 'old']); // position order
    expect(BigInt(rows[0].xid) > BigInt(rows[1].xid)).toBe(true); // xid order is the other way round
    expect(seen).toEqual(['old', 'young']);
  });

  it('reads every committed event exactly once, and no rolled-back one, under random interleavings of many writers', async () => {
    let run = 0;
    const step = fc.record({ writer: fc.nat({ max: 7 }), pollAfter: fc.boolean() });
    const plan = fc.record({
      writers: fc.integer({ min: 2, max: 8 }),
      steps: fc.array(step, { minLength: 10, maxLength: 60 }),
      writesFirst: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
      rollsBack: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(plan, async ({ writers, steps, writesFirst, rollsBack }) => {
        const name = `prop-${++run}`;
        const seen: string[] = [];
        const committed: string[] = [];
        // Each writer moves through: begin (and maybe take its xid by writing something first), append, end.
        const phase = Array.from({ length: writers }, () => 0);
        const advance = async (w: number) => {
          const c = clients[w];
          const tag = `${name}/${w}`;
          if (phase[w] === 0) {
            await c.query('BEGIN');
            if (writesFirst[w]) await c.query('SELECT pg_current_xact_id()');
          } else if (phase[w] === 1) {
            await store.append(c, `Prop:${tag}`, 'no_stream', event(tag));
          } else if (phase[w] === 2) {
            await c.query(rollsBack[w] ? 'ROLLBACK' : 'COMMIT');
            if (!rollsBack[w]) committed.push(tag);
          }
          phase[w]++;
        };
        for (const s of steps) {
          await advance(s.writer % writers);
          if (s.pollAfter) await poll(name, seen);
        }
        for (let w = 0; w < writers; w++) while (phase[w] < 3) await advance(w);
        await poll(name, seen);
        const mine = seen.filter((t) => t.startsWith(`${name}/`));
        expect(mine.slice().sort()).toEqual(committed.slice().sort());
        expect(new Set(mine).size).toBe(mine.length);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('stores checkpoints forward only', async () => {
    const at = (transactionId: string, position: string): LogCursor => ({ transactionId, position });
    await storeCheckpoint(db.dataSource, 'svc', 'forward', at('10', '5'));
    await storeCheckpoint(db.dataSource, 'svc', 'forward', at('9', '50'));
    await storeCheckpoint(db.dataSource, 'svc', 'forward', at('10', '4'));
    expect(await loadCheckpoint(db.dataSource, 'svc', 'forward')).toEqual(at('10', '5'));
    await storeCheckpoint(db.dataSource, 'svc', 'forward', at('11', '1'));
    expect(await loadCheckpoint(db.dataSource, 'svc', 'forward')).toEqual(at('11', '1'));
    expect(await loadCheckpoint(db.dataSource, 'svc', 'unknown')).toEqual(LOG_START);
  });
});
