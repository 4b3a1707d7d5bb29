import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeIfKafka, kafkaBrokersForTests, OwnPostgres } from '@payments/testing';
// The chart's list of the cluster-mode apps (not part of the build, so the harness cannot import it).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { CLUSTER_APPS } from '../../../deploy/cluster-apps';
import { ClusterPlatform, clusterApps } from './cluster-platform';
import { admin } from './run';

/**
 * Cold starts per run: each is 18 processes starting on 2 CPUs (30-60 s), so CI does 2 (the cluster seed's start,
 * where an exit fails the seed, is one more); CLUSTER_COLD_STARTS=7 repeats it as often as the race was first seen (3 of 7).
 */
const COLD_STARTS = Number(process.env.CLUSTER_COLD_STARTS) || 2;

/**
 * A first install as the chart makes it: two replicas of every cluster-mode app starting at the same moment on an
 * empty database and a fresh Kafka namespace, several times over. Every replica must come up ready (its own /readyz
 * 200) and none may exit: bootstrap seeds, migrations, topic creation and group joins race here.
 */
describeIfKafka('the cluster cold-started with two replicas of every app at once', () => {
  let postgres: OwnPostgres;
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-cold-start-'));

  beforeAll(async () => {
    postgres = await OwnPostgres.start({ maxConnections: 400 }); // 18 processes' pools: more connections than the shared test server has
  });

  afterAll(async () => {
    postgres?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every app the chart deploys', () => {
    expect(clusterApps()).toEqual([...CLUSTER_APPS]);
  });

  it(`comes up with every replica ready and none exited, ${COLD_STARTS} times on fresh databases`, async () => {
    const outcomes: string[] = [];
    for (let run = 0; run < COLD_STARTS; run++) {
      const name = `cold_${run}_${randomBytes(4).toString('hex')}`;
      const url = await postgres.createDatabase(name);
      const sandbox = { clientId: `cold-${name}`, clientSecret: randomBytes(24).toString('hex') };
      const cluster = await ClusterPlatform.create({
        databaseUrl: url,
        kafkaBrokers: kafkaBrokersForTests()!.join(','),
        busNamespace: `${name}.`,
        sandbox,
        production: { clientId: `${sandbox.clientId}-prod`, clientSecret: randomBytes(24).toString('hex') },
        secretHashKey: randomBytes(32).toString('hex'),
        dataDir,
      });
      try {
        const started = Date.now();
        const failure = await cluster.start(150_000).then(() => undefined, (e: Error) => e.message.slice(0, 4_000));
        const exits = cluster.unexpectedExits.map((e) => `${e.label} exited (code ${e.code}, signal ${e.signal}):\n${e.output.slice(-3_000)}`);
        outcomes.push(failure || exits.length ? `cold start ${run}: ${failure ?? ''}\n${exits.join('\n')}` : `cold start ${run}: ready in ${Date.now() - started} ms`);
        if (!failure) {
          // One bootstrap platform, its two tokens: the replicas agreed instead of each creating its own.
          expect(await cluster.query(`SELECT count(*)::int AS n FROM identity.platforms`)).toEqual([{ n: 1 }]);
          expect(await cluster.query(`SELECT count(*)::int AS n FROM identity.api_tokens`)).toEqual([{ n: 2 }]);
        }
      } finally {
        await cluster.dispose();
        await admin(postgres.url(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    }
    expect(outcomes.filter((o) => !/ready in/.test(o))).toEqual([]);
  }, COLD_STARTS * 170_000);
});
