import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { cleanUpInterrupted } from './interrupt';
import { runSeed } from './run';

const USAGE = `usage: npm run chaos -- [--seed S] [--runs N] [--ops N] [--kills K] [--concurrency C] [--parallel P] [--cluster] [--infrastructure-faults] [--keep] [--verbose]

Runs seeds S, S+1, … S+N-1: each on a fresh database (DATABASE_URL's server), the platform as a child process that
is SIGKILLed and restarted K times during a seeded workload, then checks. KAFKA_BROKERS set: on Kafka, else on the
PostgreSQL-log bus. Exit code 1 when any seed has a violation; a seed replays the same workload and kill points.

  --seed S         first seed (default: random, printed)
  --runs N         number of seeds (default 1)
  --ops N          operations per run (default 150)
  --kills K        crashes per run (default: 2-4, from the seed)
  --concurrency C  requests in flight (default 8)
  --parallel P     seeds run side by side (default 1); with P > 1 each seed runs on a PostgreSQL server of its own,
                   since one seed's platform holds about 55 connections of a shared server
  --cluster        the cluster as the chart deploys it: 2 replicas of every app behind a balancer per service, on a
                   PostgreSQL server and a Kafka broker of the run's own; each kill point SIGKILLs a replica of an app
                   (every app in turn) or restarts PostgreSQL (immediate shutdown) or the broker (default K: 11)
  --infrastructure-faults
                   the one-process platform on a PostgreSQL server (and with KAFKA_BROKERS a broker) of the run's own,
                   so kill points also restart those
  --keep           keep each run's database (and Kafka topics) for inspection
  --verbose        echo the platform's output
`;

/** A replica of each of the 9 apps, PostgreSQL and Kafka: every fault once. */
const CLUSTER_FAULTS = 11;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seed: { type: 'string' },
      runs: { type: 'string', default: '1' },
      ops: { type: 'string', default: '150' },
      kills: { type: 'string' },
      concurrency: { type: 'string', default: '8' },
      parallel: { type: 'string', default: '1' },
      keep: { type: 'boolean', default: false },
      cluster: { type: 'boolean', default: false },
      'infrastructure-faults': { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const int = (name: string, raw: string | undefined, min: number): number => {
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) throw new Error(`--${name} must be an integer >= ${min}, got ${raw}`);
    return value;
  };
  const first = values.seed === undefined ? randomInt(1, 2 ** 31) : int('seed', values.seed, 0);
  if (values.seed === undefined) process.stdout.write(`seed ${first} (random; pass --seed ${first} to replay)\n`);
  const runs = int('runs', values.runs, 1);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const log = (line: string) => process.stdout.write(`${line}\n`);

  // Interrupted: every seed in progress kills its platform and removes its servers and database before the exit.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the seeds in progress (their platforms, servers and databases)`);
      const late = new Promise((done) => setTimeout(done, 30_000).unref());
      void Promise.race([cleanUpInterrupted(), late]).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
  const parallel = int('parallel', values.parallel, 1);
  const began = Date.now();
  let failed = 0;
  const runOne = async (seed: number) => {
    try {
      const result = await runSeed({
        seed,
        ops: int('ops', values.ops, 1),
        kills: values.kills === undefined ? (values.cluster ? CLUSTER_FAULTS : 2 + (seed % 3)) : int('kills', values.kills, 0),
        cluster: values.cluster,
        infrastructureFaults: values['infrastructure-faults'],
        ownPostgres: parallel > 1,
        concurrency: int('concurrency', values.concurrency, 1),
        databaseUrl,
        kafkaBrokers: process.env.KAFKA_BROKERS || undefined,
        keep: values.keep,
        verbose: values.verbose,
        log,
      });
      for (const v of result.violations) log(`seed ${seed}: ${v.check}: ${v.message}`);
      log(result.summary);
      if (result.violations.length > 0) failed++;
    } catch (error) {
      failed++;
      log(`seed ${seed}: ERROR ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    }
  };
  let next = first;
  const worker = async () => {
    while (next < first + runs) await runOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, runs) }, worker));
  if (runs > 1) log(`${runs - failed} of ${runs} seeds passed in ${Math.round((Date.now() - began) / 1000)} s (${((runs * 3_600_000) / (Date.now() - began)).toFixed(0)} seeds an hour)`);
  return failed === 0 ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`chaos failed: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    process.exit(2);
  },
);
