import { join } from 'node:path';
// jest loads globalSetup outside its module map, so path aliases do not resolve here.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { startEmbeddedPostgres } from '../../embedded-postgres/src/embedded-postgres';

/**
 * Runs once before all suites. Tests use a real PostgreSQL: DATABASE_URL when set, else an embedded one.
 * Under CI=true the Kafka suites are required, so a missing KAFKA_BROKERS fails the run instead of skipping.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.CI === 'true' && !process.env.KAFKA_BROKERS) {
    throw new Error('CI=true but KAFKA_BROKERS is not set: the Kafka contract suite must run in CI');
  }
  // Each test platform runs every service in this process; small pools keep a suite well inside max_connections.
  process.env.DB_POOL_SIZE_MAX ??= '3';
  if (!process.env.DATABASE_URL) {
    const db = await startEmbeddedPostgres({
      dataDir: join(__dirname, '../../../.data/test-postgres'),
      port: Number(process.env.EMBEDDED_POSTGRES_TEST_PORT ?? 54339),
    });
    process.env.DATABASE_URL = db.url;
    (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg = db;
  }
}
