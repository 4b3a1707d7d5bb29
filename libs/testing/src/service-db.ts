import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, MigrationSet, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from './database';

/** A fresh database with one service schema migrated (event store, inbox, timers, plus the given sets). */
export interface TestServiceDb {
  database: TestDatabase;
  dataSource: DataSource;
  schema: string;
  close(): Promise<void>;
}

export async function openTestServiceDb(schema = 'svc', extra: MigrationSet[] = [], entities: Function[] = []): Promise<TestServiceDb> {
  const database = await createTestDatabase();
  const dataSource = await openServiceDatabase({ url: database.url, schema, entities, poolSizeMax: 30 });
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
