import type { Pool } from 'pg';
import { Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/** What the pool gauges read: node-postgres keeps these counts in memory, so a scrape costs no query. */
export type PoolStats = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'> & { options: { max?: number } };

/** The node-postgres pool under a TypeORM DataSource (its PostgreSQL driver's `master`); undefined before it is initialized. */
export function poolOfDataSource(dataSource: DataSource): PoolStats | undefined {
  return (dataSource.driver as unknown as { master?: PoolStats }).master;
}

/**
 * Saturation of the app's connection pools, by pool name (the service's schema): connections open, idle, the
 * configured maximum (DB_POOL_SIZE_MAX), and queries waiting for a connection. Waiting above zero for a while means
 * the pool is the bottleneck: every request of that service queues behind it.
 */
export function registerDbPoolMetrics(registry: Registry, pools: Record<string, () => PoolStats | undefined>): void {
  const gauge = (name: string, help: string, read: (pool: PoolStats) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const [pool, statsOf] of Object.entries(pools)) {
          const stats = statsOf();
          const value = stats && read(stats);
          if (value !== undefined) this.set({ pool }, value);
        }
      },
    });
  gauge('payments_db_pool_connections', 'Connections the pool holds open (busy and idle).', (p) => p.totalCount);
  gauge('payments_db_pool_idle_connections', 'Open connections not running a query.', (p) => p.idleCount);
  gauge('payments_db_pool_max_connections', 'The most connections the pool may open (DB_POOL_SIZE_MAX).', (p) => p.options.max);
  gauge('payments_db_pool_waiting_clients', 'Queries waiting for a free connection (the pool is saturated while above 0).', (p) => p.waitingCount);
}
