import { Client } from 'pg';
import { eventually } from '@payments/testing';

/**
 * Everything a tenant has in production, as the database holds it: a digest of the rows of every table that has a
 * `platform_id` (of its production rows, where the table has a `mode`). Ledger, transactions, queued and delivered
 * webhooks, idempotency claims and events all live in such tables.
 */
export async function productionState(databaseUrl: string, platformId: string): Promise<Record<string, string>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tables: { schema: string; name: string; has_mode: boolean }[] = (
      await db.query(
        `SELECT c.table_schema AS schema, c.table_name AS name,
                EXISTS (SELECT 1 FROM information_schema.columns m WHERE m.table_schema = c.table_schema AND m.table_name = c.table_name AND m.column_name = 'mode') AS has_mode
           FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
          WHERE c.column_name = 'platform_id' ORDER BY 1, 2`,
      )
    ).rows;
    const state: Record<string, string> = {};
    for (const { schema, name, has_mode } of tables) {
      const where = `platform_id::text = $1${has_mode ? ` AND mode::text = 'PRODUCTION'` : ''}`;
      const [row] = (await db.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS digest FROM "${schema}"."${name}" r WHERE ${where}`, [platformId])).rows;
      state[`${schema}.${name}`] = `${row.n}:${row.digest}`;
    }
    return state;
  } finally {
    await db.end();
  }
}

/** The production state once it stopped moving (the projections, timers and webhooks of a setup have landed). */
export async function settledProductionState(databaseUrl: string, platformId: string): Promise<Record<string, string>> {
  let last = await productionState(databaseUrl, platformId);
  return eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await productionState(databaseUrl, platformId);
      const settled = JSON.stringify(now) === JSON.stringify(last);
      last = now;
      return settled ? now : undefined;
    },
    { what: 'a settled production state', timeoutMs: 20_000 },
  );
}
