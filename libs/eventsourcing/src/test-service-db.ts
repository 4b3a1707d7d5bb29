import { DataSource } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { eventsourcingMigrations } from './eventsourcing.migrations';
import { MigrationSet, runMigrations } from './migrations';
import { asTransactional } from './typeorm';

/** Test fixture: a fresh database with one service schema migrated (event store, inbox, timers, plus `extra`). */
export interface TestServiceDb {
  database: TestDatabase;
  dataSource: DataSource;
  schema: string;
  close(): Promise<void>;
}

export async function openTestServiceDb(schema = 'svc', extra: MigrationSet[] = []): Promise<TestServiceDb> {
  const database = await createTestDatabase();
  const dataSource = new DataSource({ type: 'postgres', url: database.url, extra: { max: 30 } });
  await dataSource.initialize();
  await runMigrations(asTransactional(dataSource), schema, [eventsourcingMigrations, ...extra]);
  return {
    database,
    dataSource,
    schema,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await database.drop();
    },
  };
}
