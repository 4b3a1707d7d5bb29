import { describeIfKafka, testServerUrl } from '@payments/testing';
import { runSeed } from './run';

/**
 * `npm run chaos -- --cluster` in small (issue #42): one seed on the cluster as the chart deploys it (2 replicas of
 * every app behind a balancer per service, a PostgreSQL server and a Kafka broker of the run's own) with every fault
 * once: a replica of each of the 9 apps SIGKILLed in turn, PostgreSQL restarted with an immediate shutdown, the broker
 * SIGKILLed and restarted; then every check. Needs the Kafka jars (`npm run kafka:start` fetched them), so it runs
 * where KAFKA_BROKERS is set (always in CI). Replays with `npm run chaos -- --seed 1 --cluster --ops 100`.
 */
const SEED = 1;
const OPS = 100;
const FAULTS = 11;

describeIfKafka('chaos (the cluster, 2 replicas of every app)', () => {
  it(`seed ${SEED}: ${OPS} operations and ${FAULTS} faults (every app, PostgreSQL, Kafka) leave no violation`, async () => {
    const log: string[] = [];
    const result = await runSeed({ seed: SEED, ops: OPS, kills: FAULTS, concurrency: 8, databaseUrl: testServerUrl(), cluster: true, log: (line) => log.push(line) });
    const violations = result.violations.map((v) => `${v.check}: ${v.message}`);
    if (violations.length > 0) console.log(log.join('\n'));
    expect({ violations, summary: violations.length ? result.summary : '' }).toEqual({ violations: [], summary: '' });
  }, 600_000);
});
