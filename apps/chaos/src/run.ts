import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { BusView, deleteKafkaNamespace, kafkaBusView, pgBusView } from './bus-view';
import { CheckContext, CheckName, checkBus, checkInboxes, checkLedger, checkOperations, checkWebhooks, replayAcknowledged, Violation, waitQuiescent } from './checks';
import { ApiClient, basicAuth } from './client';
import { PlatformProcess } from './platform-process';
import { createOperator, fundProduction, operatorClient, productionEnv, railDirectories, setUpProduction } from './production';
import { RailBank } from './rail-bank';
import { checkProductionWebhooks, checkRails } from './rail-checks';
import { WebhookReceiver } from './receiver';
import { setUpWorld, World } from './setup';
import { isProduction, planWorkload, plannedReturns, runWorkload } from './workload';

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
const SHOWN: CheckName[] = ['stuck', 'replay', 'ledger', 'bus', 'inbox', 'webhooks', 'rails', 'quiescence'];
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
  const kafkaBrokers = options.kafkaBrokers?.split(',').map((b) => b.trim()).filter(Boolean);
  const serverUrl = new URL(options.databaseUrl);
  const runUrl = new URL(options.databaseUrl);
  runUrl.pathname = `/${databaseName}`;

  await admin(serverUrl.toString(), `CREATE DATABASE "${databaseName}"`);
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-chaos-'));
  const sandbox = { clientId: `chaos-${options.seed}`, clientSecret: randomBytes(24).toString('hex') };
  const production = { clientId: `chaos-${options.seed}-prod`, clientSecret: randomBytes(24).toString('hex') };
  const rails = railDirectories(dataDir);
  const db = new Client({ connectionString: runUrl.toString(), application_name: 'chaos-checks' });
  let receiver: WebhookReceiver | undefined;
  let platform: PlatformProcess | undefined;
  let bus: BusView | undefined;
  let bank: RailBank | undefined;
  try {
    await db.connect(); // before the platform takes its connections: on a busy shared server the checks still get one
    receiver = await WebhookReceiver.start();
    platform = await PlatformProcess.create({
      databaseUrl: runUrl.toString(),
      kafkaBrokers: kafkaBrokers?.join(','),
      busNamespace,
      sandbox,
      production,
      secretHashKey: randomBytes(32).toString('hex'),
      dataDir,
      verbose: options.verbose,
      extraEnv: productionEnv(rails, BATCH_INTERVAL_SECONDS),
    });
    await platform.start();
    const clients = { sandbox: new ApiClient(platform.origin, basicAuth(sandbox.clientId, sandbox.clientSecret)), production: new ApiClient(platform.origin, basicAuth(production.clientId, production.clientSecret)) };
    const reviewer = await createOperator(platform.env, 'Chaos Reviewer', 'REVIEWER');
    const world: World = { ...(await setUpWorld(clients.sandbox, receiver)), production: await setUpProduction(clients.production, operatorClient(platform.origin, reviewer)) };
    await fundProduction(clients.production, db, world.production, PRODUCTION_FUNDING, `chaos-${options.seed}-production-funding`);
    bank = new RailBank(db, rails, plannedReturns(plan), world.production.accountNumber);
    bank.start();
    log(`seed ${options.seed}: set up in ${Date.now() - started} ms on ${kafkaBrokers ? 'Kafka' : 'the PostgreSQL-log bus'} (database ${databaseName}); kills before ops ${plan.kills.map((k) => `${k.atOp}${k.mode === 'busy' ? '' : `(${k.mode})`}`).join(', ')}`);

    const running = platform;
    const crasher = {
      crash: async () => {
        await running.kill();
        await running.start();
      },
    };
    const stats = await runWorkload(plan, world, clients, crasher, options.concurrency);
    log(`seed ${options.seed}: workload done in ${Date.now() - started} ms`);

    bus = kafkaBrokers ? await kafkaBusView(kafkaBrokers, `chaos-${options.seed}`) : pgBusView(db);
    const ctx: CheckContext = { db, bus, busNamespace, world, records: stats.records, clients, receiver, bank, outbox: rails.outbox };
    const violations: Violation[] = [];
    violations.push(...(await replayAcknowledged(ctx)));
    violations.push(...(await waitQuiescent(ctx, { timeoutMs: kafkaBrokers ? 180_000 : 90_000, stableMs: kafkaBrokers ? 45_000 : 10_000 })));
    await bank.stop();
    violations.push(...(await checkOperations(ctx)));
    await platform.stop(); // a clean stop: the database checks look at a platform at rest
    violations.push(...(await checkLedger({ ...platform.env, LOG_LEVEL: 'silent' })));
    violations.push(...(await checkBus(ctx)));
    violations.push(...(await checkInboxes(ctx)));
    violations.push(...(await checkWebhooks(ctx)));
    violations.push(...(await checkProductionWebhooks(ctx)));
    violations.push(...(await checkRails(ctx)));

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
      `lost=${ops('lost')}`, // operations, each may have several violation lines
      `duplicated=${ops('duplicated')}`,
      ...SHOWN.map((c) => `${c}=${n(c) === 0 ? 'ok' : `FAIL(${n(c)})`}`),
      `(${Math.round((Date.now() - started) / 1000)} s)`,
    ];
    if (rejected.length > 0) log(`seed ${options.seed}: rejected: ${tally(rejected.map((r) => `${r.op.kind} ${r.result.answer?.status} ${r.result.answer?.body?.code ?? ''}`.trim()))}`);
    return { seed: options.seed, violations, summary: `seed ${options.seed}: ${parts.join(' ')}`, databaseName };
  } finally {
    await bank?.stop();
    await platform?.stop().catch(() => undefined);
    await receiver?.close();
    await bus?.close().catch(() => undefined);
    await db.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (options.keep) log(`seed ${options.seed}: kept database ${runUrl.toString()} (bus namespace ${busNamespace})`);
    else {
      await admin(serverUrl.toString(), `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
      if (kafkaBrokers) await deleteKafkaNamespace(kafkaBrokers, busNamespace).catch(() => undefined);
    }
  }
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function tally(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, k]) => `${item} ×${k}`).join(', ');
}
