import type { SqlExecutor } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { ReadinessCheck } from './readiness';

/** The database answers a trivial query (a TypeORM DataSource or a pg Pool fits). */
export const databaseCheck = (db: SqlExecutor): ReadinessCheck => () => db.query('SELECT 1');

/** The bus transport is reachable (Kafka cluster metadata, or the PostgreSQL-log pool). */
export const busCheck = (bus: Pick<EventBus, 'ping'>): ReadinessCheck => () => bus.ping();
