import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { GENERIC_PLANS, queryPrepared } from './sql';

/** queryPrepared (issue #30): a constant text is parsed and planned once per connection, whatever executor runs it. */
describe('queryPrepared (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource({ type: 'postgres', url: database.url, extra: { max: 2, options: GENERIC_PLANS } });
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE things (id text PRIMARY KEY, n int NOT NULL)`);
    await dataSource.query(`INSERT INTO things SELECT 't' || i, i FROM generate_series(1, 20) i`);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const SELECT_SOME = `SELECT id, n FROM things WHERE id = ANY($1::text[]) ORDER BY n`;
  const preparedOn = async (tx: EntityManager) =>
    (await tx.query(`SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1`, [SELECT_SOME])) as { generic_plans: string; custom_plans: string }[];

  it('prepares the statement on the transaction’s connection and answers its rows', async () => {
    await dataSource.transaction(async (tx) => {
      expect(await queryPrepared(tx, SELECT_SOME, [['t3', 't1']])).toEqual([{ id: 't1', n: 1 }, { id: 't3', n: 3 }]);
      for (let i = 0; i < 7; i++) await queryPrepared(tx, SELECT_SOME, [[`t${i + 2}`]]);
      const [statement] = await preparedOn(tx);
      // GENERIC_PLANS: planned once for the connection, not once per run as a custom plan would be.
      expect(statement).toMatchObject({ generic_plans: '8', custom_plans: '0' }) // bigint counters come as text;
    });
  });

  it('runs the same way through a DataSource (its pool) and a pg Client', async () => {
    expect(await queryPrepared(dataSource, SELECT_SOME, [['t2']])).toEqual([{ id: 't2', n: 2 }]);
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      expect(await queryPrepared(client, SELECT_SOME, [['t4']])).toEqual([{ id: 't4', n: 4 }]);
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [SELECT_SOME]);
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
  });

  it('runs on a QueryRunner’s own connection, inside its transaction (never on the pool beside it)', async () => {
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`INSERT INTO things (id, n) VALUES ('uncommitted', 99)`);
      // Only the transaction's own connection sees its uncommitted row.
      expect(await queryPrepared(runner, SELECT_SOME, [['uncommitted']])).toEqual([{ id: 'uncommitted', n: 99 }]);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
  });

  it('surfaces a failing statement’s error code as an unprepared one would (callers branch on it)', async () => {
    const insert = `INSERT INTO things (id, n) VALUES ($1, $2)`;
    await expect(queryPrepared(dataSource, insert, ['t1', 1])).rejects.toMatchObject({ code: '23505' });
    await expect(dataSource.transaction((tx) => queryPrepared(tx, insert, ['t1', 1]))).rejects.toMatchObject({ code: '23505' });
  });
});
