import type { Client } from 'pg';

/**
 * BENCH_PG_STATEMENTS=1: the embedded PostgreSQL loads pg_stat_statements, and each write row prints (stderr) the
 * statements that cost the server the most time per transaction created, planning included. The load table's
 * PostgreSQL CPU column says how much the server spends per request; this says on what.
 */
export const PG_STATEMENTS = process.env.BENCH_PG_STATEMENTS === '1';

export const pgStatementsSettings = (): Record<string, string> | undefined =>
  PG_STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all', 'pg_stat_statements.track_planning': 'on' } : undefined;

export async function resetPgStatements(db: Client): Promise<void> {
  if (!PG_STATEMENTS) return;
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await db.query('SELECT pg_stat_statements_reset()');
}

interface StatementCost {
  query: string;
  calls: string;
  exec_ms: number;
  plan_ms: number;
  rows: string;
}

/** The costliest statements since the reset, per transaction created (µs of execution and planning, calls). */
export async function pgStatementsReport(db: Client, created: number): Promise<string[]> {
  if (!PG_STATEMENTS || created === 0) return [];
  const { rows } = await db.query<StatementCost>(
    `SELECT query, calls::text, total_exec_time AS exec_ms, total_plan_time AS plan_ms, rows::text
       FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time + total_plan_time DESC LIMIT 30`,
  );
  const all = await db.query<{ exec_ms: number; plan_ms: number; calls: string }>(`SELECT sum(total_exec_time) AS exec_ms, sum(total_plan_time) AS plan_ms, sum(calls)::text AS calls FROM pg_stat_statements`);
  const per = (ms: number) => Math.round((ms * 1000) / created);
  const total = all.rows[0];
  return [
    `all statements: ${per(total.exec_ms)} µs executing + ${per(total.plan_ms)} µs planning per transaction, ${(Number(total.calls) / created).toFixed(1)} calls`,
    '  exec µs | plan µs | calls | rows/call | statement',
    ...rows.map((r) => `  ${String(per(r.exec_ms)).padStart(7)} | ${String(per(r.plan_ms)).padStart(7)} | ${(Number(r.calls) / created).toFixed(2).padStart(5)} | ${(Number(r.rows) / Math.max(1, Number(r.calls))).toFixed(1).padStart(9)} | ${r.query.replace(/\s+/g, ' ').slice(0, 220)}`),
  ];
}
