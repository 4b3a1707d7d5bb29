/** The one thing the store needs from a connection: a TypeORM EntityManager/QueryRunner or a pg client fits. */
export interface SqlExecutor {
  query(sql: string, parameters?: unknown[]): Promise<any>;
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
