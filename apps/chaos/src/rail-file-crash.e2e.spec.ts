import { createHash, randomBytes } from 'node:crypto';
import { FSWatcher, mkdtempSync, readdirSync, readFileSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { readNachaFile } from '@payments/rails';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { checkLedger } from './checks';
import { ApiClient, basicAuth, CallResult } from './client';
import { PlatformProcess, sleep } from './platform-process';
import { advanceCalendar, createOperator, fundProduction, operatorClient, productionEnv, ProductionWorld, RailDirectories, railDirectories, setUpProduction, transactionStatus } from './production';
import { until } from './setup';

/** Kills at least this many times, and goes on (up to MAX_KILLS) until the worst moment was hit once. */
const MIN_KILLS = 3;
const MAX_KILLS = 8;
const PAYOUTS_PER_KILL = 3;
const FUNDING = 100_000_000;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface Kill {
  file: string;
  /** The file's `rail_files` row status read right after the kill: WRITING is the worst moment (on disk, not recorded). */
  rowStatus: string;
  sha256: string;
}

/**
 * The file connector's crash window, hit on purpose: the built platform (a child process) is SIGKILLed the moment a
 * new NACHA file appears in its outbox, before its WRITTEN record. After the restart the file must be
 * recorded with exactly the bytes on disk (never rewritten with others), every payout must be in exactly one file
 * (read back from the files themselves), each must settle once when the ACH calendar comes, and the ledger must balance.
 */
describe('rails: a SIGKILL between writing a NACHA file and recording it', () => {
  let database: TestDatabase;
  let root: string;
  let dirs: RailDirectories;
  let platform: PlatformProcess;
  let db: Client;
  let prod: ApiClient;
  let world: ProductionWorld;
  let fundingId: string;
  const payouts: string[] = [];
  const kills: Kill[] = [];
  /** Every outbox file's SHA-256 the first time it was seen: a file must never change afterwards. */
  const firstSeen = new Map<string, string>();
  const rewritten: string[] = [];

  /** Reads every complete file of the outbox and notes any whose bytes changed since first seen. */
  const observeOutbox = () => {
    for (const name of readdirSync(dirs.outbox)) {
      if (name.startsWith('.')) continue;
      const digest = sha256(readFileSync(join(dirs.outbox, name)));
      const before = firstSeen.get(name);
      if (before === undefined) firstSeen.set(name, digest);
      else if (before !== digest) rewritten.push(`${name}: ${before} → ${digest}`);
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase('chaos_rail_crash');
    root = mkdtempSync(join(tmpdir(), 'pp-rail-crash-'));
    dirs = railDirectories(root);
    const production = { clientId: 'rail-crash-prod', clientSecret: randomBytes(24).toString('hex') };
    platform = await PlatformProcess.create({
      databaseUrl: database.url,
      busNamespace: `${database.name}.`,
      sandbox: { clientId: 'rail-crash', clientSecret: randomBytes(24).toString('hex') },
      production,
      secretHashKey: randomBytes(32).toString('hex'),
      dataDir: join(root, 'data'),
      extraEnv: productionEnv(dirs, 1),
    });
    await platform.start();
    db = new Client({ connectionString: database.url, application_name: 'rail-crash-checks' });
    await db.connect();
    const reviewer = await createOperator(platform.env, 'Rita Reviewer', 'REVIEWER');
    prod = new ApiClient(platform.origin, basicAuth(production.clientId, production.clientSecret));
    world = await setUpProduction(prod, operatorClient(platform.origin, reviewer));
    fundingId = await fundProduction(prod, db, world, FUNDING, 'rail-crash-funding');
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
    await db?.end();
    await database?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Sends payouts, SIGKILLs the platform on the first new `.ach` in the outbox, reads the database, restarts. */
  async function killOnNextFile(round: number): Promise<Kill | undefined> {
    observeOutbox();
    const known = new Set(readdirSync(dirs.outbox));
    let caught: string | undefined;
    let killed: Promise<void> | undefined;
    const watcher: FSWatcher = watch(dirs.outbox, (_event, filename) => {
      const name = filename ? String(filename) : '';
      if (caught || !name.endsWith('.ach') || name.startsWith('.') || known.has(name)) return;
      caught = name;
      killed = platform.kill(); // the signal is sent now, synchronously; the promise settles on the child's exit
    });
    let calls: Promise<CallResult>[] = [];
    try {
      calls = Array.from({ length: PAYOUTS_PER_KILL }, (_, i) =>
        prod.call('POST', '/transfer-out', { source: { accountId: world.usd }, destination: { accountId: world.usdExternal }, amount: 10_000 + round * 100 + i }, `rail-crash-${round}-${i}`),
      );
      const deadline = Date.now() + 20_000;
      while (!caught && Date.now() < deadline) await sleep(5);
    } finally {
      watcher.close();
    }
    let kill: Kill | undefined;
    if (caught) {
      await killed;
      // Read at once, the platform dead: what a crash at this moment leaves behind.
      const { rows } = await db.query<{ status: string }>(`SELECT status FROM payments.rail_files WHERE direction = 'OUTBOUND' AND name = $1`, [caught]);
      kill = { file: caught, rowStatus: rows[0]?.status ?? '(no row)', sha256: sha256(readFileSync(join(dirs.outbox, caught))) };
      observeOutbox();
      await platform.start();
    }
    // The payouts' requests retry (same Idempotency-Key) across the restart.
    for (const result of await Promise.all(calls)) {
      expect({ outcome: result.outcome, status: result.answer?.status }).toEqual({ outcome: 'acked', status: 201 });
      payouts.push(result.answer!.body.id);
    }
    return kill;
  }

  it('hits the window between writing a file and recording it, and the restart records the same bytes', async () => {
    for (let round = 1; round <= MAX_KILLS; round++) {
      const kill = await killOnNextFile(round);
      if (kill) kills.push(kill);
      if (round >= MIN_KILLS && kills.some((k) => k.rowStatus === 'WRITING')) break;
    }
    const hits = kills.filter((k) => k.rowStatus === 'WRITING');
    console.log(`rail-file crash: ${kills.length} kills, worst moment (file on disk, row WRITING) hit ${hits.length} times: ${kills.map((k) => `${k.file}=${k.rowStatus}`).join(', ')}`);
    expect(kills.length).toBeGreaterThan(0);
    if (hits.length === 0) {
      throw new Error(`the window between writing a file and recording it was never hit in ${kills.length} kills (rows were ${kills.map((k) => k.rowStatus).join(', ')}): this run proved nothing about it`);
    }

    // Every file killed on is recorded WRITTEN once the restarted platform recovers it, with the bytes on disk at the kill.
    for (const kill of kills) {
      const row = await until(`${kill.file} WRITTEN`, async () => {
        const { rows } = await db.query(`SELECT file_id, status, sha256 FROM payments.rail_files WHERE direction = 'OUTBOUND' AND name = $1`, [kill.file]);
        return rows[0]?.status === 'WRITTEN' ? rows[0] : undefined;
      });
      expect({ file: kill.file, recorded: row.sha256, onDisk: sha256(readFileSync(join(dirs.outbox, kill.file))) }).toEqual({ file: kill.file, recorded: kill.sha256, onDisk: kill.sha256 });
    }
  }, 600_000);

  it('puts every payout in exactly one file, rewrites no file, and records every file WRITTEN with its bytes, the outbox holding nothing but bank files', async () => {
    const ids = [...payouts, fundingId];
    await until('every payment in a written file', async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM payments.rail_payments p JOIN payments.rail_files f ON f.file_id = p.file_id WHERE f.status = 'WRITTEN' AND p.payment_id = ANY($1::text[])`, [ids]);
      return rows[0].n === ids.length;
    }, 60_000);
    const { rows: perPayment } = await db.query(`SELECT payment_id, count(DISTINCT file_id)::int AS files FROM payments.rail_payments WHERE payment_id = ANY($1::text[]) GROUP BY payment_id ORDER BY payment_id`, [ids]);
    expect(perPayment).toEqual([...ids].sort().map((id) => ({ payment_id: id, files: 1 })));

    const { rows: files } = await db.query<{ file_id: string; name: string; status: string; sha256: string }>(`SELECT file_id, name, status, sha256 FROM payments.rail_files WHERE direction = 'OUTBOUND' ORDER BY name`);
    observeOutbox();
    expect(rewritten).toEqual([]);
    // Temporary files a kill left behind (hidden, never taken for files; nothing removes them yet).
    const leftovers = readdirSync(dirs.outbox).filter((n) => n.startsWith('.'));
    if (leftovers.length > 0) console.log(`rail-file crash: ${leftovers.length} temporary files left in the outbox: ${leftovers.join(', ')}`);
    const onDisk = readdirSync(dirs.outbox).filter((n) => n.endsWith('.ach') && !n.startsWith('.')).sort();
    // What a bank's pick-up would take (every name not hidden) is bank files only: no manifest, no temporary file.
    expect(readdirSync(dirs.outbox).filter((n) => !n.startsWith('.')).sort()).toEqual(onDisk);
    expect(leftovers.every((n) => n.endsWith('.tmp'))).toBe(true);
    expect(files.map((f) => f.name)).toEqual(onDisk);
    for (const f of files) {
      expect({ name: f.name, status: f.status, sha256: f.sha256 }).toEqual({ name: f.name, status: 'WRITTEN', sha256: firstSeen.get(f.name) });
    }

    // The files as the bank reads them: every trace number once across all files, exactly our payments' references.
    const traces = onDisk.flatMap((name) => readNachaFile(readFileSync(join(dirs.outbox, name), 'utf8')).batches.flatMap((b) => b.entries.map((e) => e.traceNumber)));
    const twice = traces.filter((t, i) => traces.indexOf(t) !== i);
    expect(twice).toEqual([]);
    const { rows: references } = await db.query<{ rail_reference: string }>(`SELECT rail_reference FROM payments.rail_payments WHERE payment_id = ANY($1::text[])`, [ids]);
    expect([...traces].sort()).toEqual(references.map((r) => r.rail_reference).sort());
  }, 120_000);

  it('settles every payout exactly once when the ACH calendar comes, and the ledger balances', async () => {
    const { rows: files } = await db.query<{ file_id: string }>(`SELECT file_id FROM payments.rail_files WHERE direction = 'OUTBOUND'`);
    for (const f of files) await advanceCalendar(db, f.file_id);
    for (const id of payouts) await transactionStatus(prod, id, 'COMPLETED');
    // Production webhooks (queued by the dispatcher for the https endpoint): each status once, COMPLETED once.
    await until('every payout COMPLETED webhook queued', async () => {
      const { rows } = await db.query(`SELECT count(DISTINCT data_json::jsonb->>'id')::int AS n FROM webhooks.deliveries WHERE mode = 'PRODUCTION' AND data_json::jsonb->>'status' = 'COMPLETED' AND data_json::jsonb->>'id' = ANY($1::text[])`, [payouts]);
      return rows[0].n === payouts.length;
    });
    const { rows } = await db.query<{ id: string; statuses: string[] }>(
      `SELECT data_json::jsonb->>'id' AS id, array_agg(data_json::jsonb->>'status' ORDER BY created_at, webhook_id) AS statuses
         FROM webhooks.deliveries WHERE mode = 'PRODUCTION' AND data_json::jsonb->>'id' = ANY($1::text[]) GROUP BY 1 ORDER BY 1`,
      [payouts],
    );
    expect(rows).toEqual([...payouts].sort().map((id) => ({ id, statuses: ['PENDING', 'PROCESSING', 'COMPLETED'] })));
    const { rows: settled } = await db.query(`SELECT count(*)::int AS n FROM payments.rail_outcomes WHERE payment_id = ANY($1::text[]) AND kind = 'SETTLED'`, [payouts]);
    expect(settled).toEqual([{ n: payouts.length }]);
    await platform.stop();
    expect(await checkLedger({ ...platform.env, LOG_LEVEL: 'silent' })).toEqual([]);
  }, 180_000);
});
