import { ident, queryRows, SqlExecutor } from './sql';

/** A numbered, forward-only schema change. `sql` may use `{{schema}}`, replaced by the quoted schema name. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationSet {
  /** Who owns these versions: `eventsourcing`, `identity`, … (versions are numbered per module). */
  module: string;
  migrations: readonly Migration[];
}

/** A connection pool that can run work in one transaction; Tx is what the work gets (EntityManager for TypeORM). */
export interface Transactional<Tx extends SqlExecutor = SqlExecutor> extends SqlExecutor {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/**
 * Applies pending migrations of each set in version order, each in its own transaction, under an advisory lock
 * so two processes starting at once do not race. Returns the versions applied (empty when up to date).
 */
export async function runMigrations(db: Transactional, schema: string, sets: readonly MigrationSet[]): Promise<string[]> {
  const s = ident(schema);
  await queryRows(db, `CREATE SCHEMA IF NOT EXISTS ${s}`).catch((e: { code?: string }) => {
    if (e.code !== '23505') throw e;
  });
  await queryRows(db, `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
      module text NOT NULL, version integer NOT NULL, name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (module, version))`).catch((e: { code?: string }) => {
    if (e.code !== '23505') throw e;
  });
  // One read of what is applied, so a restart of an up-to-date schema costs one query, not a locked transaction per
  // migration (about 160 of them across the services, most of a restart's boot time before this).
  const present = new Set((await queryRows<{ module: string; version: number }>(db, `SELECT module, version FROM ${s}.schema_migrations`)).map((r) => `${r.module} ${r.version}`));
  const applied: string[] = [];
  for (const set of sets) {
    assertNumbered(set);
    for (const migration of set.migrations) {
      if (present.has(`${set.module} ${migration.version}`)) continue;
      // Pending when read: apply it under the lock, checking again there (another process may have applied it since).
      const done = await db.transaction(async (tx) => {
        await queryRows(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`migrations:${schema}`]);
        const rows = await queryRows(tx, `SELECT 1 FROM ${s}.schema_migrations WHERE module = $1 AND version = $2`, [
          set.module,
          migration.version,
        ]);
        if (rows.length > 0) return false;
        await queryRows(tx, migration.sql.replace(/\{\{schema\}\}/g, s));
        await queryRows(tx, `INSERT INTO ${s}.schema_migrations (module, version, name) VALUES ($1, $2, $3)`, [
          set.module,
          migration.version,
          migration.name,
        ]);
        return true;
      });
      if (done) applied.push(`${set.module}:${String(migration.version).padStart(4, '0')}_${migration.name}`);
    }
  }
  return applied;
}

function assertNumbered(set: MigrationSet): void {
  set.migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`${set.module} migrations must be numbered 1..n without gaps; got ${m.version} at ${i}`);
  });
}
