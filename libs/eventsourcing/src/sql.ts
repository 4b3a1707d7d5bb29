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
