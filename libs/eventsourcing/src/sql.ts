import { createHash } from 'node:crypto';
import { Client, Pool } from 'pg';

/** The one thing the store needs from a connection: a TypeORM EntityManager/QueryRunner or a pg client fits. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<any>;
  /**
   * The pg connection (or pool) under this executor, when it has one: `queryPrepared` sends its statements there as
   * named prepared statements. Executors built on pg (sqlExecutorOf) set it; TypeORM's are recognised without it.
   */
  readonly pg?: PgQueryable;
}

/** What pg's Client, PoolClient and Pool offer for a named statement. */
export interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Quotes a SQL identifier (schema names come from config, never from requests, but quote anyway). */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid SQL identifier: ${name}`);
  return `"${name}"`;
}

/** Runs a query and returns its rows whether the executor is TypeORM (rows) or pg (a Result with `rows`). */
export async function queryRows<T = any>(db: SqlExecutor, sql: string, parameters?: unknown[]): Promise<T[]> {
  const result = await db.query(sql, parameters);
  if (Array.isArray(result)) return result as T[];
  if (result && Array.isArray(result.rows)) return result.rows as T[];
  return [];
}

/**
 * Distinct texts `queryPrepared` names at most: each is prepared on every connection that runs it and kept by the
 * server for the connection's life, so a text that turned out not to be constant (data in it) must not grow that
 * without bound. Past this many, new texts run unprepared.
 */
export const PREPARED_TEXTS_MAX = 2_000;
const namesByText = new Map<string, string>();

function statementName(sql: string): string | undefined {
  const known = namesByText.get(sql);
  if (known !== undefined || namesByText.size >= PREPARED_TEXTS_MAX) return known;
  const name = `pp_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
  namesByText.set(sql, name);
  return name;
}

/**
 * The pg connection under `db`: our pg executors' `pg`; a pg Client, PoolClient or Pool itself; a TypeORM QueryRunner's
 * own connection; an EntityManager in a transaction, its query runner's
 * connection; a DataSource (or its manager outside a transaction), its pool. Undefined when it is not connected yet
 * or not pg: the statement then runs unprepared.
 */
function pgOf(db: SqlExecutor): PgQueryable | undefined {
  if (db.pg) return db.pg;
  if (db instanceof Client || db instanceof Pool) return db as unknown as PgQueryable;
  const typeorm = db as {
    startTransaction?: unknown;
    databaseConnection?: PgQueryable;
    queryRunner?: { databaseConnection?: PgQueryable };
    driver?: { master?: PgQueryable };
    connection?: { driver?: { master?: PgQueryable } };
  };
  // A QueryRunner: its own connection, never the pool (it may hold a transaction); unset until it connects.
  if (typeof typeorm.startTransaction === 'function') return typeorm.databaseConnection;
  if (typeorm.queryRunner) return typeorm.queryRunner.databaseConnection; // an EntityManager in a transaction
  return typeorm.driver?.master ?? typeorm.connection?.driver?.master; // a DataSource, or its manager outside one
}

/**
 * The connection setting every pool that runs `queryPrepared` statements opens its connections with (`options`).
 * PostgreSQL re-plans a prepared statement on each run until a generic plan looks as cheap as the custom ones; with
 * arrays as parameters it rarely does (it cannot see their length), so the planning `queryPrepared` is for would
 * stay. Our prepared statements are index lookups and unnest inserts whose plan does not depend on the values:
 * planned once per connection. It changes nothing for unprepared statements (always planned for their values).
 */
export const GENERIC_PLANS = '-c plan_cache_mode=force_generic_plan';

/**
 * `queryRows` as a prepared statement (issue #30): PostgreSQL parses, analyses and plans `sql` once per connection
 * instead of on every call, and pg sends only Bind and Execute after the first time. `sql` must be constant text,
 * varying only with names from configuration (a schema, a table), never with data or the number of rows: lists go
 * in as arrays (`unnest`). Past PREPARED_TEXTS_MAX distinct texts, or on an executor without a pg connection, it
 * runs as queryRows does.
 */
export async function queryPrepared<T = any>(db: SqlExecutor, sql: string, parameters: readonly unknown[]): Promise<T[]> {
  const pg = pgOf(db);
  const name = pg && statementName(sql);
  if (!pg || !name) return queryRows<T>(db, sql, [...parameters]);
  return (await pg.query({ name, text: sql, values: [...parameters] })).rows as T[];
}

/** A statement and its parameters ($1, $2, …). */
export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** The relation an alongside statement gates its rows on (`withAlongside`): one row only when main wrote all of its. */
export const APPENDED_ALL = 'appended_all';

/** The condition an alongside statement puts in its WHERE (`withAlongside`). */
export const IF_APPENDED = `EXISTS (SELECT 1 FROM ${APPENDED_ALL})`;

/**
 * `main` (a data-modifying statement with RETURNING, expected to return `expectedRows` rows) with `alongside`
 * data-modifying statements in one statement: each becomes a WITH query, so they commit or fail together at the cost
 * of one round trip (issue #30: an append and its read models). The answer is main's rows.
 *
 * An alongside statement gates its rows on `appended_all` (APPENDED_ALL: `WHERE EXISTS (SELECT 1 FROM appended_all)`),
 * which has a row only when main returned every expected row: when main's guard refuses, they write nothing, so none
 * of their constraints (a foreign key to a row whose creation rolled back) can fail the statement and hide the
 * refusal. Constraints PostgreSQL sets: an alongside statement has no WITH of its own (data-modifying WITH queries
 * live at the top level only), sees the snapshot from before the statement (not another's rows), and no two may
 * modify one row. Its `$n` are renumbered after main's, so its text must hold no other `$`.
 */
export function withAlongside(main: Statement, alongside: readonly Statement[], expectedRows: number): Statement {
  if (alongside.length === 0) return main;
  const params = [...main.params, expectedRows];
  const gate = `${APPENDED_ALL} AS (SELECT 1 WHERE (SELECT count(*) FROM main) = $${params.length}::bigint)`;
  const queries = alongside.map((s, i) => {
    if (/^\s*with\b/i.test(s.sql)) throw new Error('an alongside statement cannot have a WITH of its own');
    const offset = params.length;
    params.push(...s.params);
    return `alongside_${i} AS (${s.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`)})`;
  });
  return { sql: `WITH main AS (${main.sql}), ${gate}, ${queries.join(', ')} SELECT * FROM main`, params };
}
