import { Pool } from 'pg';
import { runMigrations, SqlExecutor, Transactional } from '@payments/eventsourcing';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { gatewayMigrations } from './idempotency.migrations';
import { Claim, IdempotencyScope, IdempotencyStore } from './idempotency.store';

/**
 * The store on a real PostgreSQL, with a database that goes away for a while: an executor that fails the statements
 * it is told to, as a connection refused during an outage would, and passes everything else to the server.
 */
describe('IdempotencyStore across a database outage', () => {
  let database: TestDatabase;
  let pool: Pool;
  let down: RegExp | undefined;
  const flaky: SqlExecutor = {
    query: (sql: string, parameters?: unknown[]) => (down?.test(sql) ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })) : pool.query(sql, parameters)),
  };
  const stores: IdempotencyStore[] = [];
  const scope: IdempotencyScope = { platformId: 'platform-1', mode: 'SANDBOX', key: 'key-1' };

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, options: '-c search_path=gw', max: 4 });
    await pool.query('CREATE SCHEMA gw');
    const transactional: Transactional = {
      query: (sql, parameters) => pool.query(sql, parameters),
      transaction: async (work) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await work(client);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
    };
    await runMigrations(transactional, 'gw', [gatewayMigrations]);
  });

  afterEach(async () => {
    down = undefined;
    for (const store of stores.splice(0)) await store.stop();
    await pool.query('DELETE FROM idempotency_keys');
  });

  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const storeOf = async (heartbeatMs = 100) => {
    const store = new IdempotencyStore(flaky, { ttlMs: 86_400_000, leaseMs: 30_000, heartbeatMs });
    await store.start();
    stores.push(store);
    return store;
  };

  it("a release that failed during the outage frees that attempt's claim, never the retry's that took the key over", async () => {
    const store = await storeOf();
    // Attempt 1 claims the key; the database goes away; its request fails (503) and so does the release.
    const first = claimed(await store.claim(scope, 'hash'));
    down = /DELETE FROM idempotency_keys|INSERT INTO gateway_instances/;
    await expect(store.release(scope, first)).rejects.toThrow(/ECONNREFUSED/);
    // Long enough without a heartbeat that the claim looks abandoned, then the database is back: the client's retry
    // (attempt 2) takes the key over before the next heartbeat retries the failed release.
    await new Promise((r) => setTimeout(r, 400));
    claimed(await store.claim(scope, 'hash'));
    down = undefined;
    await new Promise((r) => setTimeout(r, 300)); // heartbeats run the pending release
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'in-flight' }); // attempt 2 still holds the key
    // Attempt 2 succeeds and records its answer: a later retry gets that answer replayed, not a third run.
    await store.complete(scope, 'hash', 201, { id: 'resource-1' });
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'replay', status: 201, body: { id: 'resource-1' } });
  });

  it('the answer of an attempt whose key a retry took over is recorded, and the retry that finishes later keeps it', async () => {
    const store = await storeOf();
    claimed(await store.claim(scope, 'hash'));
    down = /INSERT INTO gateway_instances/;
    await new Promise((r) => setTimeout(r, 400)); // no heartbeat: the first attempt looks abandoned
    const retry = claimed(await store.claim(scope, 'hash'));
    down = undefined;
    await store.complete(scope, 'hash', 201, { id: 'resource-1' });
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'replay', status: 201, body: { id: 'resource-1' } });
    await store.complete(scope, 'hash', 201, { id: 'resource-1', answeredBy: 'retry' });
    await store.release(scope, retry); // a late release of the retry's claim frees nothing recorded
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'replay', status: 201, body: { id: 'resource-1' } });
  });

  it("an answer is recorded even when its claim's record is gone, and a 5xx of another attempt frees only its own claim", async () => {
    const store = await storeOf();
    const first = claimed(await store.claim(scope, 'hash'));
    await pool.query('DELETE FROM idempotency_keys'); // purged meanwhile (an expired record, an operator)
    await store.complete(scope, 'hash', 200, { ok: true });
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'replay', status: 200, body: { ok: true } });
    await store.release(scope, first);
    expect(await store.claim(scope, 'hash')).toEqual({ outcome: 'replay', status: 200, body: { ok: true } });
    expect(await store.claim(scope, 'other hash')).toEqual({ outcome: 'mismatch' });
  });
});

function claimed(claim: Claim): string {
  if (claim.outcome !== 'claimed') throw new Error(`expected the key to be claimed, got ${claim.outcome}`);
  return claim.claimId;
}
