import { DataSource, EntitySchema, MixedList } from 'typeorm';
import { Client } from 'pg';
import { GENERIC_PLANS } from '@payments/eventsourcing';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own schema: no other service reads it (DESIGN §2). */
  schema: string;
  entities?: MixedList<Function | string | EntitySchema>;
  poolSizeMax?: number;
  applicationName?: string;
}

/** Opens the TypeORM DataSource a service uses for its event store, inbox, timers and read models. */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  await ensureSchema(options.url, options.schema);
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities ?? [],
    synchronize: false, // numbered migrations own the schema
    migrationsRun: false,
    logging: false,
    applicationName: options.applicationName ?? options.schema,
    extra: {
      max: options.poolSizeMax ?? poolSizeMaxDefault(),
      // Raw SQL in projections names tables unqualified: they resolve in the service's own schema.
      // GENERIC_PLANS: queryPrepared's statements are planned once per connection.
      options: `-c search_path=${options.schema},public ${GENERIC_PLANS}`,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
    },
  });
  await dataSource.initialize();
  return dataSource;
}

/** DB_POOL_SIZE_MAX (default 10) bounds each service's pool: one process runs every service in the embedded mode. */
function poolSizeMaxDefault(): number {
  const value = Number(process.env.DB_POOL_SIZE_MAX);
  return Number.isSafeInteger(value) && value > 0 ? value : 10;
}

async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
  } catch (error) {
    // Two services booting at once may race on CREATE SCHEMA IF NOT EXISTS (a unique violation); the schema exists.
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}
