import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { OwnPostgres } from '@payments/embedded-postgres';
import { ClusterPlatform, PlatformUnderTest } from './cluster-platform';
import { describeFault, Fault, planFaults } from './faults';
import { KafkaBroker } from './kafka-broker';
import { BusView, deleteKafkaNamespace, kafkaBusView, pgBusView } from './bus-view';
import { checkAcknowledged } from './acknowledged-checks';
import { CheckContext, CheckName, checkBus, checkConsumerGroups, checkInboxes, checkLedger, replayAcknowledged, Violation, waitQuiescent } from './checks';
import { checkLedgerDuplicates } from './ledger-duplicates';
import { checkOperations, describeAttempts } from './operation-checks';
import { checkResources } from './resource-checks';
import { checkWebhooks } from './webhook-checks';
import { ApiClient, basicAuth } from './client';
import { freePort, PlatformProcess } from './platform-process';
import { createOperator, fundProduction, operatorClient, productionEnv, railDirectories, setUpProduction } from './production';
import { RailBank } from './rail-bank';
import { checkProductionWebhooks, checkRails } from './rail-checks';
import { WebhookReceiver } from './receiver';
import { CUSTOMERS, setUpCustomers, World } from './setup';
import { setUpAgent } from './setup-agents';
import { setUpCard } from './setup-cards';
import { setUpStablecoin } from './setup-stablecoins';
import { createPlatform, setUpSecondPlatform } from './setup-wallets';
import { Clients, isProduction, OpRecord, planWorkload, plannedReturns, runWorkload } from './workload';
import { onInterrupt } from './interrupt';

export interface RunOptions {
  seed: number;
  ops: number;
  kills: number;
  concurrency: number;
  /** Server to create the run's database on; the run connects to a fresh database there. */
  databaseUrl: string;
  /** Comma-separated; unset: the PostgreSQL-log bus in the run's database. */
  kafkaBrokers?: string;
  /** Keep the database (and the Kafka topics) for inspection. */
  keep?: boolean;
  /**
   * The cluster as the chart deploys it (2 replicas of every app behind a balancer per service) on a PostgreSQL server
   * and a Kafka broker of the run's own: its kill points kill a replica of each app in turn, restart PostgreSQL with an
   * immediate shutdown and kill and restart the broker (issue #42). Ignores databaseUrl and kafkaBrokers.
   */
  cluster?: boolean;
  /**
   * The one-process platform on a PostgreSQL server (and, with kafkaBrokers, a Kafka broker) of the run's own, so
   * that its kill points also restart those. Ignores databaseUrl's server and kafkaBrokers' broker.
   */
  infrastructureFaults?: boolean;
  /** The run's database on a PostgreSQL server of its own (not restarted unless infrastructureFaults): seeds side by side. */
  ownPostgres?: boolean;
  verbose?: boolean;
  log?: (line: string) => void;
}

export interface RunResult {
  seed: number;
  violations: Violation[];
  /** The one-line summary: `seed 42: ops=… acked=… kills=… retries=… lost=0 duplicated=0 ledger=ok …`. */
  summary: string;
  databaseName: string;
}

/** Checks shown as `name=ok|FAIL(n)` in the summary; lost and duplicated are shown as counts. */
const SHOWN: CheckName[] = ['acked', 'stuck', 'replay', 'ledger', 'bus', 'inbox', 'groups', 'webhooks', 'rails', 'quiescence', 'exits'];
/** A seed whose workload was mostly refused or unanswered checked little: below this share of planned operations it fails. */
const MIN_ACKNOWLEDGED = 0.8;
/** The production customer's opening balance, pulled in by ACH before the workload: far above what it pays out. */
const PRODUCTION_FUNDING = 1_000_000_000;
/** Seconds between NACHA files: NACHA allows 36 files a day to one bank (file id modifiers A-Z, 0-9), so a run stays well below. */
const BATCH_INTERVAL_SECONDS = 2;

/**
 * One seed: a fresh database, the platform as a child process, setup, the seeded workload with its crashes, then
 * the checks. Throws only when the run itself cannot proceed (setup failed, the platform does not come back).
 */
export async function runSeed(options: RunOptions): Promise<RunResult> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const plan = planWorkload(options.seed, options.ops, options.kills);
  const databaseName = `chaos_${options.seed}_${randomBytes(4).toString('hex')}`;
  const busNamespace = `${databaseName}.`;
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-chaos-'));
  const sandbox = { clientId: `chaos-${options.seed}`, clientSecret: randomBytes(24).toString('hex') };
  const production = { clientId: `chaos-${options.seed}-prod`, clientSecret: randomBytes(24).toString('hex') };
  const rails = railDirectories(dataDir);
  // The infrastructure a run owns (to restart it): the cluster brings its own, the embedded mode may.
  const ownInfrastructure = !options.cluster && options.infrastructureFaults;
  const ownServer = ownInfrastructure || (!options.cluster && options.ownPostgres) ? await OwnPostgres.start({ port: await freePort(), maxConnections: 300 }) : undefined;
  const ownBroker = ownInfrastructure && options.kafkaBrokers ? await KafkaBroker.start().catch(async (error) => (ownServer?.destroy(), Promise.reject(error))) : undefined;
  let kafkaBrokers = (ownBroker?.brokers ?? options.kafkaBrokers)?.split(',').map((b) => b.trim()).filter(Boolean);
  const serverUrl = new URL(ownServer?.url() ?? options.databaseUrl);
  const runUrl = new URL(serverUrl.toString());
  runUrl.pathname = `/${databaseName}`;

  let receiver: WebhookReceiver | undefined;
  let platform: PlatformUnderTest | undefined;
  let cluster: ClusterPlatform | undefined;
  let bus: BusView | undefined;
  let bank: RailBank | undefined;
  // A pool, not one connection: the run's own PostgreSQL restarts under it, and the checks go on after.
  let db: Pool | undefined;
  /**
   * Everything the seed started goes when it ends, and also when the runner is interrupted (main's SIGINT/SIGTERM:
   * no checks, the platform killed rather than stopped): nothing may outlive the runner.
   */
  const release = async (interrupted: boolean) => {
    await bank?.stop().catch(() => undefined);
    await (interrupted ? platform?.kill() : platform?.stop())?.catch(() => undefined);
    await receiver?.close().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    await db?.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (cluster || ownServer) {
      // The run's own server and broker go with their data (--keep cannot keep them).
      await cluster?.dispose().catch(() => undefined);
      await ownBroker?.stop().catch(() => undefined);
      ownServer?.destroy();
    } else if (options.keep) log(`seed ${options.seed}: kept database ${runUrl.toString()} (bus namespace ${busNamespace})`);
    else {
      await admin(serverUrl.toString(), `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      if (kafkaBrokers) await deleteKafkaNamespace(kafkaBrokers, busNamespace).catch(() => undefined);
    }
  };
  const forget = onInterrupt(() => release(true));
  try {
    receiver = await WebhookReceiver.start();
    const platformOptions = { busNamespace, sandbox, production, secretHashKey: randomBytes(32).toString('hex'), dataDir, verbose: options.verbose, extraEnv: productionEnv(rails, BATCH_INTERVAL_SECONDS) };
    if (options.cluster) {
      cluster = await ClusterPlatform.create({ ...platformOptions, ownPostgres: true, ownKafka: true });
      platform = cluster;
      kafkaBrokers = cluster.env.KAFKA_BROKERS!.split(',');
      runUrl.href = cluster.databaseUrl;
    } else {
      await admin(serverUrl.toString(), `CREATE DATABASE "${databaseName}"`);
      platform = await PlatformProcess.create({ ...platformOptions, databaseUrl: runUrl.toString(), kafkaBrokers: kafkaBrokers?.join(',') });
    }
    db = new Pool({ connectionString: runUrl.toString(), application_name: 'chaos-checks', max: 3 });
    db.on('error', () => undefined); // an idle connection cut by a PostgreSQL restart: the next query takes another
    await db.query('SELECT 1'); // before the platform takes its connections: on a busy shared server the checks still get one
    await platform.start();
    const startedAt = Date.now();
    const running = platform;
    const phases: string[] = [`platform ${seconds(startedAt - started)}`];
    const timed = async <T>(name: string, work: Promise<T>): Promise<T> => {
      const value = await work;
      phases.push(`${name} ${seconds(Date.now() - startedAt)}`);
      return value;
    };
    const sandboxClient = new ApiClient(platform.origin, basicAuth(sandbox.clientId, sandbox.clientSecret));
    const productionClient = new ApiClient(platform.origin, basicAuth(production.clientId, production.clientSecret));
    // Independent parts of the world side by side: the bootstrap platform's customers, production, the second platform.
    const [customers, productionWorld, second] = await Promise.all([
      timed('customers', setUpCustomers(sandboxClient, receiver)),
      timed('production', (async () => {
        const reviewer = await createOperator(running.env, 'Chaos Reviewer', 'REVIEWER');
        const world = await setUpProduction(productionClient, operatorClient(running.origin, reviewer));
        await fundProduction(productionClient, db, world, PRODUCTION_FUNDING, `chaos-${options.seed}-production-funding`);
        return world;
      })()),
      timed('second platform', (async () => setUpSecondPlatform(running.origin, await createPlatform(running.env, `Chaos ${options.seed} other`), receiver!, CUSTOMERS))()),
    ]);
    const allCustomers = [...customers, second.customer];
    const [cards, agent, stablecoin] = await Promise.all([
      timed('card', setUpCard(sandboxClient, allCustomers)),
      timed('agent', setUpAgent(sandboxClient, new ApiClient(platform.origin, ''), allCustomers)),
      timed('stablecoin', setUpStablecoin(sandboxClient, options.seed)),
    ]);
    const clients: Clients = { sandbox: sandboxClient, production: productionClient, other: second.client, agent: new ApiClient(platform.origin, `Bearer ${agent.token}`) };
    const world: World = { customers: allCustomers, production: productionWorld, cards, agent, stablecoin, wallet: second.wallet };
    bank = new RailBank(db, rails, plannedReturns(plan), world.production.accountNumber);
    bank.start();
    const setUpAt = Date.now();
    const faults = planFaults(options.seed, plan.kills.length, { clusterApps: cluster?.apps, postgres: Boolean(cluster ?? (ownInfrastructure && ownServer)), kafka: Boolean(cluster ?? ownBroker) });
    log(`seed ${options.seed}: set up in ${setUpAt - started} ms (${phases.join(', ')}) on ${kafkaBrokers ? 'Kafka' : 'the PostgreSQL-log bus'} (database ${runUrl.pathname.slice(1)}${cluster ? `, the cluster: ${cluster.apps.length} apps × 2 replicas` : ''}${ownServer ? ', PostgreSQL of its own' : ''}${ownBroker ? ', Kafka of its own' : ''}); faults ${faults.map(describeFault).join(', ')}; kills before ops ${plan.kills.map((k) => `${k.atOp}${k.mode === 'busy' ? '' : `(${k.mode})`}`).join(', ')}`);

    /** Each fault with the seconds until the platform served again: where a seed's time goes. */
    const faultTimes: string[] = [];
    const apply = async (fault: Fault) => {
      switch (fault.kind) {
        case 'kill-platform':
          await running.kill();
          return running.start();
        case 'kill-replica':
          await cluster!.killReplica(fault.app, fault.index);
          return cluster!.startReplica(fault.app, fault.index);
        case 'restart-postgres':
          return cluster ? cluster.restartPostgres(fault) : ownServer!.restart(fault);
        case 'restart-kafka':
          return cluster ? cluster.restartKafka(fault) : ownBroker!.restart(fault);
      }
    };
    let injected = 0;
    const crasher = {
      crash: async () => {
        const fault = faults[injected++] ?? { kind: 'kill-platform' };
        const at = Date.now();
        await apply(fault);
        faultTimes.push(`${describeFault(fault)} ${seconds(Date.now() - at)}`);
      },
    };
    const stats = await runWorkload(plan, world, clients, crasher, options.concurrency);
    const workloadAt = Date.now();
    log(`seed ${options.seed}: workload done in ${workloadAt - setUpAt} ms`);

    bus = kafkaBrokers ? await kafkaBusView(kafkaBrokers, `chaos-${options.seed}`) : pgBusView(db);
    const ctx: CheckContext = { db, bus, busNamespace, world, plan, records: stats.records, clients, receiver, bank, outbox: rails.outbox };
    const violations: Violation[] = [];
    violations.push(...checkAcknowledged(ctx, MIN_ACKNOWLEDGED));
    violations.push(...(await replayAcknowledged(ctx)));
    const replayedAt = Date.now();
    violations.push(...(await waitQuiescent(ctx, { timeoutMs: kafkaBrokers ? 180_000 : 90_000, stableMs: kafkaBrokers ? 45_000 : 10_000, log: (line) => log(`seed ${options.seed}: quiescence: ${line}`) })));
    const quietAt = Date.now();
    await bank.stop();
    violations.push(...(await checkOperations(ctx)));
    violations.push(...(await checkResources(ctx)));
    await platform.stop(); // a clean stop: the database checks look at a platform at rest
    violations.push(...(await checkLedger({ ...platform.env, LOG_LEVEL: 'silent' })));
    violations.push(...(await checkLedgerDuplicates(ctx)));
    violations.push(...(await checkBus(ctx)));
    violations.push(...(await checkInboxes(ctx)));
    violations.push(...(await checkConsumerGroups(ctx)));
    violations.push(...(await checkWebhooks(ctx)));
    violations.push(...(await checkProductionWebhooks(ctx)));
    violations.push(...(await checkRails(ctx)));
    // A process that exited on its own (a replica crashing under a PostgreSQL or Kafka outage, say) fails the seed,
    // though the other replica (or the restart) hid it from every client.
    violations.push(...running.unexpectedExits.map((exit) => ({ check: 'exits' as const, message: `${exit.label} exited on its own (code ${exit.code}, signal ${exit.signal}); its last output: ${exit.output.slice(-2_000)}` })));
    const checkedAt = Date.now();

    const outcomes = stats.records.map((r) => r.result.outcome);
    const n = (check: CheckName) => violations.filter((v) => v.check === check).length;
    const ops = (check: CheckName) => new Set(violations.filter((v) => v.check === check).map((v) => v.op)).size;
    const rejected = stats.records.filter((r) => r.result.outcome === 'rejected');
    const parts = [
      `ops=${plan.ops.length}`,
      `acked=${outcomes.filter((o) => o === 'acked').length}`,
      `rejected=${rejected.length}`,
      `gaveup=${outcomes.filter((o) => o === 'gave-up').length}`,
      `kills=${stats.kills}`,
      `retries=${stats.retries}`,
      `prod=${stats.records.filter((r) => isProduction(r.op.kind) && r.result.outcome === 'acked').length}`,
      `returns=${bank.returnsWritten}(+${bank.reimportsWritten} again)`,
      `achFiles=${bank.filesSettled}`,
      `covered=${covered(stats.records)}`,
      `lost=${ops('lost')}`, // operations, each may have several violation lines
      `duplicated=${ops('duplicated')}`,
      ...SHOWN.map((c) => `${c}=${n(c) === 0 ? 'ok' : `FAIL(${n(c)})`}`),
      `(${seconds(checkedAt - started)} s: faults ${faultTimes.join(', ')}; setup ${seconds(setUpAt - started)}, workload ${seconds(workloadAt - setUpAt)}, replay ${seconds(replayedAt - workloadAt)}, quiescence ${seconds(quietAt - replayedAt)}, checks ${seconds(checkedAt - quietAt)})`,
    ];
    if (rejected.length > 0) log(`seed ${options.seed}: rejected: ${tally(rejected.map((r) => `${r.op.kind} ${r.result.answer?.status} ${r.result.answer?.body?.code ?? ''}`.trim()))}`);
    for (const r of rejected.filter((r) => !r.op.refusal)) log(`seed ${options.seed}: rejected op ${r.op.index} (${r.op.kind} ${r.method} ${r.path}): ${describeAttempts(r)}: ${JSON.stringify(r.result.answer?.body)}`);
    return { seed: options.seed, violations, summary: `seed ${options.seed}: ${parts.join(' ')}`, databaseName };
  } finally {
    forget();
    await release(false);
  }
}

/** One statement on a connection of its own to a server (CREATE or DROP DATABASE of a run). */
export async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** `kind×acked` for every kind of operation the seed sent: what this seed exercised. */
function covered(records: OpRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) if (r.result.outcome === 'acked') counts.set(r.op.kind, (counts.get(r.op.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${kind}:${n}`).join(',');
}

function tally(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, k]) => `${item} ×${k}`).join(', ');
}
