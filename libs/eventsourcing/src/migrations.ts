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
  // One read of what is applied, so a restart of an up-to-date schema costs one query, not a locked transaction per
  // migration (about 160 of them across the services, most of a restart's boot time before this).
  const present = new Set((await appliedVersions(db, schema)).map((r) => `${r.module} ${r.version}`));
  const applied: string[] = [];
  for (const set of sets) {
    assertNumbered(set);
    for (const migration of set.migrations) {
      if (present.has(`${set.module} ${migration.version}`)) continue;
      // Pending when read: apply it under the lock, checking again there (another process may have applied it since).
      const done = await db.transaction(async (tx) => {
        await lockMigrations(tx, schema);
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

async function appliedVersions(db: Transactional, schema: string): Promise<{ module: string; version: number }[]> {
  const s = ident(schema);
  const read = () => queryRows<{ module: string; version: number }>(db, `SELECT module, version FROM ${s}.schema_migrations`);
  try {
    return await read();
  } catch (e) {
    // 3F000: no such schema; 42P01: no such table. A first start: create what is missing under the migrations lock.
    // IF NOT EXISTS alone is not safe between concurrent sessions (the loser fails "type schema_migrations already
    // exists"), nor is it under an advisory lock: waiting on one does not refresh the session's catalog cache, so
    // what exists is read from the catalogs with a fresh snapshot instead.
    const code = (e as { code?: string }).code;
    if (code !== '3F000' && code !== '42P01') throw e;
  }
  await db.transaction(async (tx) => {
    await lockMigrations(tx, schema);
    const [found] = await queryRows<{ schema: boolean; table: boolean }>(
      tx,
      `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema,
              EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                      WHERE n.nspname = $1 AND c.relname = 'schema_migrations') AS table`,
      [schema],
    );
    if (!found.schema) await queryRows(tx, `CREATE SCHEMA ${s}`);
    if (!found.table) {
      await queryRows(tx, `CREATE TABLE ${s}.schema_migrations (
        module text NOT NULL, version integer NOT NULL, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (module, version))`);
    }
  });
  return read();
}

/** The one lock every starter applying or bootstrapping a schema's migrations takes, until its transaction ends. */
async function lockMigrations(tx: SqlExecutor, schema: string): Promise<void> {
  await queryRows(tx, `SELECT pg_advisory_xact_lock(hashtext($1))`, [`migrations:${schema}`]);
}

function assertNumbered(set: MigrationSet): void {
  set.migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`${set.module} migrations must be numbered 1..n without gaps; got ${m.version} at ${i}`);
  });
}
