import { kafkaBrokersForTests, testServerUrl } from '@payments/testing';
import { runSeed } from './run';

/**
 * `npm run chaos` in small: fixed seeds, each a built launcher SIGKILLed twice under a concurrent money workload whose
 * client retries with the same Idempotency-Key, then every check (nothing acknowledged lost, nothing done twice,
 * ledger:check, every event on the bus, inboxes, webhooks), on the PostgreSQL-log bus and, when KAFKA_BROKERS is set
 * (always in CI), on Kafka. A failing seed replays with `npm run chaos -- --seed S --ops 80 --kills 3` (seed 2: with `--infrastructure-faults`).
 */
const SEEDS = [1, 2];
const OPS = 80;
const KILLS = 3;
/**
 * Seed 2 also restarts a PostgreSQL server (and on Kafka a broker) of its own at its kill points. On Kafka that once
 * stopped a consumer for good: a handler that waited out the PostgreSQL restart past the session timeout found its
 * member dropped at commit, and kafkajs does not restart from that (issue #42; KafkaSubscription now rejoins).
 */
const INFRASTRUCTURE_FAULTS = new Set([2]);

// Both buses whenever a broker is there (always in CI): the relay and the consumers differ between them.
const buses: [string, string | undefined][] = [['PostgreSQL-log bus', undefined]];
const kafka = kafkaBrokersForTests()?.join(',');
if (kafka) buses.push(['Kafka', kafka]);

describe.each(buses)('chaos (%s)', (_bus, kafkaBrokers) => {
  it(`seeds ${SEEDS.join(', ')}: ${OPS} operations and ${KILLS} crashes each leave no violation`, async () => {
    const log: string[] = [];
    // The seeds run side by side. On the PostgreSQL-log bus every consumer loop holds a connection, so each seed has a
    // PostgreSQL server of its own there (as `npm run chaos -- --parallel 2` does) and the shared one keeps its room;
    // on Kafka they need few connections, and each restart waits for the killed members' sessions (about 30 s).
    const run = (seed: number) => runSeed({ seed, ops: OPS, kills: KILLS, concurrency: 8, databaseUrl: testServerUrl(), kafkaBrokers, infrastructureFaults: INFRASTRUCTURE_FAULTS.has(seed), ownPostgres: !kafkaBrokers, log: (line) => log.push(line) });
    const settled = await Promise.allSettled(SEEDS.map(run));
    if (settled.some((s) => s.status === 'rejected' || s.value.violations.length > 0)) console.log(log.join('\n'));
    const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`seed ${SEEDS[i]}: ERROR ${s.reason instanceof Error ? s.reason.stack : String(s.reason)}`] : []));
    expect(failures).toEqual([]);
    const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const violations = results.flatMap((r) => r.violations.map((v) => `seed ${r.seed}: ${v.check}: ${v.message}`));
    // On failure the summaries say what else happened in the run (acked, retries, kills).
    expect({ violations, summaries: violations.length ? results.map((r) => r.summary) : [] }).toEqual({ violations: [], summaries: [] });
  }, 300_000);
});
