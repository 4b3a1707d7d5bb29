import { Append, appendTargets, emmettVersion, TargetName } from './append-targets';

/** What the orchestrator asks the appenders for (JSON in argv[2]). */
export interface AppendSpec {
  databaseUrl: string;
  appenders: number;
  /** Per store, split over ROUNDS. */
  durationS: number;
}

/** What the appenders print. */
export interface AppendReport {
  emmettVersion: string;
  results: AppendResult[];
}

export interface AppendResult {
  target: TargetName;
  eventsPerS: number;
  p50: number;
  p99: number;
  errors: number;
  firstError?: string;
}

/** The stores take turns, so background work of the platform (timers coming due) weighs on all of them alike. */
const ROUNDS = 3;

interface Tally {
  latencies: number[];
  elapsedMs: number;
  errors: number;
  firstError?: string;
}

/**
 * The append rows, in their own process (`node append-load.js '<AppendSpec>'`) so the appenders do not share an event
 * loop with the platform: `appenders` concurrent appenders per store, each on its own stream, the stores in turns.
 * Prints an AppendReport as JSON on the last line of stdout.
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]) as AppendSpec;
  const targets = appendTargets(spec.databaseUrl, spec.appenders, Date.now().toString(36));
  const names = Object.keys(targets) as TargetName[];
  const tallies = new Map(names.map((n): [TargetName, Tally] => [n, { latencies: [], elapsedMs: 0, errors: 0 }]));
  const appenders = Array.from({ length: spec.appenders }, (_, i) => i);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      const target = await targets[name]();
      try {
        await Promise.all(appenders.map((i) => target.append(i))); // warm-up, not timed: connects the pool, creates the streams
        await drive(target.append, appenders, (spec.durationS * 1000) / ROUNDS, tallies.get(name)!);
      } finally {
        await target.close();
      }
    }
  }
  const results = names.map((target) => ({ target, ...summary(tallies.get(target)!) }));
  const report: AppendReport = { emmettVersion: emmettVersion(), results };
  process.stdout.write(`\n${JSON.stringify(report)}\n`);
}

/** Every appender appends, one call after the other, for `ms`. */
async function drive(append: Append, appenders: number[], ms: number, tally: Tally): Promise<void> {
  const start = performance.now();
  await Promise.all(
    appenders.map(async (i) => {
      while (performance.now() - start < ms) {
        const t = performance.now();
        try {
          await append(i);
          tally.latencies.push(performance.now() - t);
        } catch (error) {
          tally.errors++;
          tally.firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  tally.elapsedMs += performance.now() - start;
}

function summary(t: Tally): Omit<AppendResult, 'target'> {
  const sorted = [...t.latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
  return { eventsPerS: Math.round((sorted.length * 1000) / t.elapsedMs), p50: at(0.5), p99: at(0.99), errors: t.errors, firstError: t.firstError };
}

main().catch((error) => {
  process.stderr.write(`appenders failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
