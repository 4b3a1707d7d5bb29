import type { DataSource, EntityManager } from 'typeorm';
import type { Transactional } from './migrations';

/** Adapts a TypeORM DataSource to the small Transactional port the store, migrations and timers use. */
export function asTransactional(dataSource: DataSource): Transactional<EntityManager> {
  return {
    query: (sql, parameters) => dataSource.query(sql, parameters as any[]),
    transaction: (work) => dataSource.transaction((manager) => work(manager)),
  };
}
