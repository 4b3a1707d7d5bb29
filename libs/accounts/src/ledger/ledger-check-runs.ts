import { Gauge, Registry } from 'prom-client';
import type { LedgerCheckRunView, ListLedgerChecksQuery, Page } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { keysetPage, scrapeRead } from '@payments/runtime';

export interface LedgerCheckRun {
  finishedAt: Date;
  accountsChecked: number;
  violations: number;
  /** The rules violated, each once (LedgerViolation['rule'] and the cards side's). */
  rules: string[];
}

/**
 * Where `npm run admin -- ledger:check` leaves its outcome for the accounts service to expose. The check is run by
 * the operator's schedule, not by the service: it folds every ledger account's stream (cost grows with the whole
 * ledger) and compares the cards schema with the ledger, which no service may read but its owner.
 */
export async function recordLedgerCheckRun(db: SqlExecutor, run: { accountsChecked: number; violations: readonly { rule: string }[] }): Promise<void> {
  const rules = [...new Set(run.violations.map((v) => v.rule))].sort();
  await queryRows(db, `INSERT INTO ledger_check_runs (accounts_checked, violations, rules) VALUES ($1, $2, $3)`, [run.accountsChecked, run.violations.length, rules]);
}

export async function lastLedgerCheckRun(db: SqlExecutor): Promise<LedgerCheckRun | undefined> {
  const [row] = await queryRows<{ finished_at: Date; accounts_checked: number; violations: number; rules: string[] }>(
    db,
    `SELECT finished_at, accounts_checked, violations, rules FROM ledger_check_runs ORDER BY run_id DESC LIMIT 1`,
  );
  return row && { finishedAt: new Date(row.finished_at), accountsChecked: row.accounts_checked, violations: row.violations, rules: row.rules };
}

interface LedgerCheckRunRow {
  run_id: string; // bigint: pg answers it as text
  finished_at: Date;
  accounts_checked: number;
  violations: number;
  rules: string[];
}

/** GET /operator/v1/ledger-checks: every recorded run, newest first (run ids only grow). */
export function listLedgerCheckRuns(db: SqlExecutor, query: ListLedgerChecksQuery): Promise<Page<LedgerCheckRunView>> {
  return keysetPage<LedgerCheckRunRow, LedgerCheckRunView>({
    db,
    from: 'FROM ledger_check_runs WHERE TRUE',
    params: [],
    // Zero-padded so the text key sorts as the number does (keyset keys are compared as text).
    keyColumn: `lpad(run_id::text, 20, '0')`,
    order: 'desc',
    limit: query.limit,
    cursor: query.cursor,
    select: 'run_id, finished_at, accounts_checked, violations, rules',
    toItem: (row) => ({ runId: Number(row.run_id), finishedAt: new Date(row.finished_at).toISOString(), accountsChecked: row.accounts_checked, violations: row.violations, rules: row.rules }),
    keyOf: (row) => String(row.run_id).padStart(20, '0'),
  });
}

/**
 * The last ledger:check run as metrics: pass/fail, when it finished (0 before the first run: alert on its age, so a
 * schedule that stopped is noticed), and how many violations it found. One indexed row read per scrape.
 */
export function registerLedgerCheckMetrics(registry: Registry, db: SqlExecutor): void {
  const last = scrapeRead(async () => ({ run: await lastLedgerCheckRun(db) }));
  const registers = [registry];
  new Gauge({
    name: 'payments_ledger_check_ok',
    help: '1 when the last ledger:check found no violation, 0 when it found some (also 0 before the first run: read it with the timestamp).',
    registers,
    async collect() {
      const read = await last();
      if (read) this.set(read.run && read.run.violations === 0 ? 1 : 0);
    },
  });
  new Gauge({
    name: 'payments_ledger_check_last_run_timestamp_seconds',
    help: 'When the last ledger:check finished (Unix time; 0 when it never ran on this database).',
    registers,
    async collect() {
      const read = await last();
      if (read) this.set(read.run ? read.run.finishedAt.getTime() / 1000 : 0);
    },
  });
  new Gauge({
    name: 'payments_ledger_check_violations',
    help: 'Invariant violations the last ledger:check found (unbalanced entries or currencies, balances that differ from postings or events, overdrafts, card transactions that differ from their postings).',
    registers,
    async collect() {
      const read = await last();
      if (read) this.set(read.run?.violations ?? 0);
    },
  });
}
