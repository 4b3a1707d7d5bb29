import type { PgQueryable, SqlExecutor, Transactional } from '@payments/eventsourcing';
import type { ClientBase, Pool } from 'pg';

/** A pg connection seen as the SqlExecutor of libs/eventsourcing (query resolves to the rows, as TypeORM's does). */
export function sqlExecutorOf(client: Pick<ClientBase, 'query'>): SqlExecutor {
  // `pg`: queryPrepared sends its statements to the connection (or pool) itself, as named statements.
  return { query: async (sql, parameters) => (await client.query(sql, parameters as unknown[])).rows, pg: client as PgQueryable };
}

/** The Transactional port on a pg Pool, for runMigrations and the inbox when no TypeORM DataSource is around. */
export function pgTransactional(pool: Pool): Transactional {
  return { ...sqlExecutorOf(pool), transaction: (work) => inTransaction(pool, work) };
}

export async function inTransaction<T>(pool: Pool, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await inClientTransaction(client, work, (error) => (broken = error));
  } finally {
    // A connection whose ROLLBACK failed is unusable: destroy it instead of handing it to the next caller.
    client.release(broken);
  }
}

/** BEGIN … COMMIT on one connection; on failure ROLLBACK and rethrow the work's error. */
export async function inClientTransaction<T>(
  client: ClientBase,
  work: (tx: SqlExecutor) => Promise<T>,
  onRollbackFailed: (error: Error) => void = () => undefined,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(sqlExecutorOf(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(onRollbackFailed);
    throw error;
  }
}
