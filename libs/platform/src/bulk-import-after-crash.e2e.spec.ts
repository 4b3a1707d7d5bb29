import { Client } from 'pg';
import { eventually } from '@payments/testing';
import { finishedJob, individualRow, INDIVIDUAL_COLUMNS, toCsv, uploadCsv } from './test-customer-import';
import { LauncherPlatform, startLauncher } from './test-launcher';

/**
 * A bulk import interrupted by a real crash (issue #42 b): the built launcher (test-launcher.ts) is SIGKILLed after a
 * batch's customers were created and before the batch's outcomes were committed, then started again on the same
 * database. What the client sees must be as if nothing had happened: the job completes, every row of the file is
 * imported exactly once (its customer created once, its error reported once), the job's counts right.
 *
 * The moment is made certain, not hoped for: once the first batch is committed the test takes a row lock on the job,
 * so the worker's commit of the second batch (which updates that row first) waits behind it; once the second batch's
 * customers are all visible and the commit is waiting, the process is SIGKILLed. PostgreSQL drops the dead client's
 * waiting statement (client_connection_check_interval, set on the database) and only then is the lock released: the
 * batch was never recorded, as when a process dies before its commit. The dead worker's lease (30 s) runs out before
 * the restarted one takes the job up again, which is what a client waits after a crash.
 */
describe('bulk import after a real SIGKILL of the platform (built launcher, real PostgreSQL, HTTP)', () => {
  const BATCH = 200; // CUSTOMER_IMPORT_WORKER_DEFAULTS.batchSize: the kill falls inside the second batch
  const ROWS = 2 * BATCH;
  const INVALID = [50, 300]; // 1-based rows, one in each batch: refused once, whatever the crash
  let t: LauncherPlatform;
  let db: Client;

  beforeAll(async () => {
    t = await startLauncher({}, { client_connection_check_interval: '50ms' });
    db = new Client({ connectionString: t.database.url, application_name: 'bulk-crash-checks' });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  /** The first row of a query on the platform's database. */
  const one = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows[0];

  it('completes the job after the crash: every row imported exactly once, the counts right', async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => individualRow(`crash-${i + 1}`, INVALID.includes(i + 1) ? { birthDate: 'soon' } : {}));
    const accepted = await uploadCsv(t, toCsv(rows, INDIVIDUAL_COLUMNS));
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.jobId as string;

    await eventually(async () => {
      const job = await one(`SELECT status, processed FROM identity.customer_import_jobs WHERE job_id = $1`, [jobId]);
      if (job.processed > BATCH || job.status === 'COMPLETED') throw new Error(`the second batch committed before the lock (processed ${job.processed}): the batch is too small for this machine`);
      return job.processed === BATCH;
    }, { what: 'the first batch to be committed', timeoutMs: 60_000, intervalMs: 10 });
    const lock = new Client({ connectionString: t.database.url, application_name: 'bulk-crash-lock' });
    await lock.connect();
    try {
      await lock.query('BEGIN');
      const [held] = (await lock.query(`SELECT processed FROM identity.customer_import_jobs WHERE job_id = $1 FOR UPDATE`, [jobId])).rows;
      expect(held.processed).toBe(BATCH);
      // The second batch's customers all created (the invalid row creates none), and its commit waiting on the lock.
      await eventually(async () => (await one(`SELECT count(*)::int AS n FROM identity.customers`)).n === ROWS - INVALID.length, { what: "the second batch's customers", timeoutMs: 30_000 });
      await eventually(async () => (await one(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%customer_import_jobs%'`)).n === 1, { what: "the batch's commit to wait on the lock" });
      await t.process.kill();
      // The waiting commit dies with its client (client_connection_check_interval) before the lock is released.
      await eventually(async () => (await one(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'bulk-crash-checks' AND application_name <> 'bulk-crash-lock' AND backend_type = 'client backend'`)).n === 0, { what: "the dead process's connections to close" });
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      await lock.end();
    }
    const interrupted = await one(`SELECT status, processed, succeeded, failed FROM identity.customer_import_jobs WHERE job_id = $1`, [jobId]);
    expect(interrupted).toEqual({ status: 'PROCESSING', processed: BATCH, succeeded: BATCH - 1, failed: 1 }); // the second batch unrecorded

    const restartedAt = Date.now();
    await t.process.start();
    // The dead worker's lease (30 s from its last commit) must run out first.
    const job = await finishedJob(t, jobId, { timeoutMs: 75_000 });
    console.log(`bulk import after a SIGKILL: COMPLETED ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart began`);
    expect(job).toMatchObject({ id: jobId, status: 'COMPLETED', progress: { total: ROWS, processed: ROWS, succeeded: ROWS - INVALID.length, successful: ROWS - INVALID.length, failed: INVALID.length } });
    expect(job.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual(INVALID.map((row) => [row, 'birthDate']));

    // The client's customers: every valid row's once, and nothing else.
    const seen: string[] = [];
    for (let cursor: string | undefined, page = 0; page === 0 || cursor; page++) {
      const res = await t.call('GET', `/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((c: { platformCustomerId: string }) => c.platformCustomerId));
      cursor = res.body.hasMore ? res.body.nextCursor : undefined;
    }
    const expected = rows.filter((_, i) => !INVALID.includes(i + 1)).map((r) => r.platformCustomerId);
    expect(seen.length).toBe(expected.length);
    expect([...seen].sort()).toEqual([...expected].sort());
    // The second batch's customers were found and recorded by the restarted worker, not created again.
    expect((await one(`SELECT count(*)::int AS n FROM identity.customer_import_rows WHERE job_id = $1 AND recovered`, [jobId])).n).toBe(BATCH - 1);
    expect((await one(`SELECT count(*)::int AS n FROM identity.events WHERE type = 'CustomerCreated.v1' AND metadata->>'correlationId' LIKE $1`, [`${jobId}#%`])).n).toBe(expected.length);
  }, 150_000);
});
