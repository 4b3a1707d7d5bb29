import type { AppendResult } from './append-load';
import { Backlog, Drain, formatCounts, sum } from './backlog';
import type { LoadResult } from './load';
import type { Sustained } from './sustained';

/** SQL per transaction created: in all, and the part sent on the request path (`sql-counter.ts`). */
export interface SqlPerTransaction {
  statements: number;
  commits: number;
  requestStatements: number;
  requestCommits: number;
}

/** The tables `npm run bench` prints (markdown, so they paste into an issue as they are). */
export interface Row extends LoadResult {
  scenario: string;
  /** The row this one is divided by. */
  reference?: string;
  /** CPU time (user + system) per request answered of the process that served it: the platform's, or the reference's. */
  cpuUsPerRequest?: number;
  /** CPU time per request answered of the PostgreSQL server's processes (every backend, asynchronous work included). */
  dbCpuUsPerRequest?: number;
  /** Platform rows: SQL statements the platform sent per request answered (while the load ran). */
  statementsPerRequest?: number;
  /** Write rows: the asynchronous backlog the load left behind. */
  drain?: Drain;
  /** Write rows: SQL the platform sent per transaction created, while the load ran and in all once drained. */
  sql?: { created: number; duringLoad: SqlPerTransaction; total: SqlPerTransaction };
}

const table = (header: string[], lines: (string | number)[][]) =>
  [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...lines.map((l) => `| ${l.join(' | ')} |`)].join('\n');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function loadTable(rows: Row[], durationS: number, connections: number): string {
  const byRef: Record<string, number> = {};
  for (const r of rows) {
    const tag = /\b(R\d)\b/.exec(r.scenario)?.[1];
    if (tag && r.scenario.startsWith('reference')) byRef[tag] = r.rps;
  }
  const ratio = (r: Row) => (r.reference && byRef[r.reference] ? `${(r.rps / byRef[r.reference]).toFixed(2)}× ${r.reference}` : '');
  return [
    `${durationS} s per row, ${connections} connections, load generator in its own process, references on the same PostgreSQL`,
    '',
    table(
      ['row', 'req/s', 'ratio', 'p50 ms', 'p99 ms', 'non-2xx/errors', 'service CPU µs/req', 'PostgreSQL CPU µs/req', 'SQL/req'],
      rows.map((r) => [r.scenario, r.rps, ratio(r), r.p50, r.p99, r.errors, r.cpuUsPerRequest ?? '', r.dbCpuUsPerRequest ?? '', r.statementsPerRequest?.toFixed(2) ?? '']),
    ),
  ].join('\n');
}

function drainCell(d: Drain): string {
  if (d.drainedMs !== undefined) return seconds(d.drainedMs);
  const left = d.last;
  return `not drained after ${seconds(d.timeoutMs)}: timers ${formatCounts(left.timersDue)}; relay ${formatCounts(left.relayLag)}; bus ${formatCounts(left.busLag)}`;
}

export function backlogTable(rows: Row[]): string {
  const lines = rows.flatMap((r) => (r.drain ? [[r.scenario, formatCounts(r.drain.atEnd.timersDue), formatCounts(r.drain.atEnd.relayLag), formatCounts(r.drain.atEnd.busLag), drainCell(r.drain)]] : []));
  return [
    'Asynchronous backlog at the end of each write row (due unfired timers and relay lag by service, bus consumer lag by group), polled every 250 ms until drained',
    '',
    table(['write row', 'timers due', 'relay lag (events)', 'bus consumer lag (messages)', 'drained after'], lines),
  ].join('\n');
}

export function sqlTable(rows: Row[]): string {
  const f = (n: number) => n.toFixed(1);
  const lines = rows.flatMap((r) => {
    if (!r.sql) return [];
    const { total } = r.sql;
    return [[r.scenario, r.sql.created, f(total.requestStatements), f(total.requestCommits), f(r.sql.duringLoad.statements), f(r.sql.duringLoad.commits), f(total.statements), f(total.commits)]];
  });
  return [
    "SQL the platform sent per transaction created (every pg query call of the platform's process: statements; COMMITs and writes outside a transaction: commits): on the request path (while answering the HTTP request; a group shared by several requests, or with the asynchronous side's commands, counted once, where it was flushed), while the load ran and in all once the backlog drained. A transfer-out's request path is three group-committed commands (the payment, its hold, funds held): 3 / its commits is the average group size",
    '',
    table(['write row', 'transactions', 'request path: statements', 'request path: commits', 'statements (load)', 'commits (load)', 'statements (amortised, drained)', 'commits (amortised, drained)'], lines),
  ].join('\n');
}

export function appendTable(results: AppendResult[], emmettVersion: string, appenders: number, durationS: number): string {
  const names: Record<AppendResult['target'], string> = {
    'ours-executor': 'ours: CommandExecutor.execute, trivial decider (lock, read tail, append, commit)',
    'ours-store': 'ours: PostgresEventStore.append in a transaction, expected version known',
    emmett: `Emmett ${emmettVersion}: appendToStream with expectedStreamVersion`,
  };
  const base = results.find((r) => r.target === 'emmett')?.eventsPerS;
  const ratio = (r: AppendResult) => (r.target !== 'emmett' && base ? `${(r.eventsPerS / base).toFixed(2)}× Emmett` : '');
  const errors = (r: AppendResult) => (r.firstError ? `${r.errors} (${r.firstError})` : r.errors);
  return [
    `Event-store append: ${appenders} appenders in their own process, each on its own stream, one small event per call, ${durationS} s per store, same PostgreSQL`,
    '',
    table(['store', 'events/s', 'ratio', 'p50 ms', 'p99 ms', 'errors'], results.map((r) => [names[r.target], r.eventsPerS, ratio(r), r.p50, r.p99, errors(r)])),
  ].join('\n');
}

export function sustainedTable(s: Sustained, scenario: string, durationS: number): string {
  const half = Math.ceil(s.samples.length / 2);
  const stat = (name: string, pick: (b: Backlog) => number | undefined) => series(name, s.samples.map((x) => pick(x.backlog) ?? 0));
  const series = (name: string, v: number[]) => {
    const max = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
    const fmt = (x: number) => (Number.isInteger(x) ? x : x.toFixed(2));
    return [name, fmt(v.length ? Math.min(...v) : 0), fmt(max(v)), fmt(v.at(-1) ?? 0), fmt(max(v.slice(0, half))), fmt(max(v.slice(half)))];
  };
  const rssMax = Math.max(s.rssStartMb, s.rssEndMb, ...s.samples.map((x) => x.rssMb));
  const drained = s.drain.drainedMs === undefined ? drainCell(s.drain) : `drained ${seconds(s.drain.drainedMs)} after the load (goal ≤ 5 s)`;
  return [
    `Sustained: ${scenario} for ${durationS} s, ${s.load.rps} req/s, p99 ${s.load.p99} ms, ${s.load.errors} errors; ${s.samples.length} samples, one a second (CPU, RSS and heap of the bench process, which runs the platform); the live heap after a full GC before the load, half-way and once drained (goal: flat)`,
    '',
    table(['sampled', 'min', 'max', 'last', 'max 1st half', 'max 2nd half'], [
      stat('timers due', (b) => sum(b.timersDue)),
      stat('relay lag (events)', (b) => sum(b.relayLag)),
      stat('bus consumer lag (messages)', (b) => (b.busLag ? sum(b.busLag) : undefined)),
      series('platform CPU (cores)', s.samples.map((x) => x.cpuCores)),
      series('platform RSS (MB)', s.samples.map((x) => x.rssMb)),
      series('platform V8 heap used (MB, not collected)', s.samples.map((x) => x.heapUsedMb)),
      series('platform V8 heap committed (MB)', s.samples.map((x) => x.heapTotalMb)),
      series('platform RSS − V8 heap committed (MB): code, malloc, V8 pages freed but kept', s.samples.map((x) => x.rssMb - x.heapTotalMb)),
    ]),
    '',
    table(['after a full GC', ...s.heap.map((h) => h.at)], [
      ['V8 heap used (MB): live objects', ...s.heap.map((h) => h.heapUsedMb)],
      ['V8 heap committed (MB)', ...s.heap.map((h) => h.heapTotalMb)],
      ['external (MB): Buffers, ArrayBuffers', ...s.heap.map((h) => h.externalMb)],
      ['RSS (MB)', ...s.heap.map((h) => h.rssMb)],
    ]),
    '',
    `After the load: ${drained}. Idle CPU over 5 s: ${s.idleBefore.toFixed(3)} cores before the row, ${s.idleAfter.toFixed(3)} after it. RSS: ${s.rssStartMb} MB at start, ${s.rssEndMb} MB at end, ${rssMax} MB max.`,
  ].join('\n');
}
