import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { CustomerImportRowError } from '@payments/contracts';
import { CommandExecutor, PollPause, WakeSchedule } from '@payments/eventsourcing';
import { CsvFileError, parseCustomerCsv, ParsedCustomerCsv } from './customer-csv';
import { prepareRow } from './customer-csv-row';
import { CustomerImportJobCommand, customerImportJobDecider } from './customer-import.decider';
import { projectCustomerImportJob } from './customer-import.projection';
import { CustomerImportRows, ImportJobRef, RowOutcome } from './customer-import.rows';

export interface CustomerImportWorkerOptions {
  /** Rows committed together (outcomes + counters); a crash repeats at most one batch, idempotently. */
  batchSize: number;
  rowConcurrency: number;
  jobsConcurrentMax: number;
  /** A worker that dies keeps its jobs this long; a graceful stop releases them at once. */
  leaseMs: number;
  /** Poll after a claim or an upload here; doubling while idle up to IDLE_POLL_MAX_MS (a retry set here wakes it). */
  pollIntervalMs: number;
  retryDelayMaxMs: number;
}

export const CUSTOMER_IMPORT_WORKER_DEFAULTS: CustomerImportWorkerOptions = { batchSize: 200, rowConcurrency: 6, jobsConcurrentMax: 2, leaseMs: 30_000, pollIntervalMs: 500, retryDelayMaxMs: 60_000 };

interface ClaimedJob extends ImportJobRef {
  status: 'PENDING' | 'PROCESSING';
  processed: number;
  attempts: number;
}

class LeaseLostError extends Error {}

/**
 * Processes import jobs in the background. A job is claimed with a lease in `customer_import_jobs` (SKIP LOCKED,
 * so replicas share the work); the state is all in PostgreSQL (the file, the next row, each row's outcome), so a
 * restarted or another worker resumes at the first uncommitted batch. Polls, and wakes at once on an upload here.
 */
export class CustomerImportWorker {
  private readonly owner = `customer-import-${uuidv7()}`;
  private readonly active = new Map<string, Promise<void>>();
  private readonly rows: CustomerImportRows;
  private running = false;
  private loop?: Promise<void>;
  /** Ended by an upload here, a finished job (a free slot) or a retry falling due, also when one came while claiming. */
  private pause: PollPause;
  /** Wakes the loop when a job this worker postponed may run again. */
  private readonly retriesDue = new WakeSchedule(() => this.pause.wake());

  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    customers: ConstructorParameters<typeof CustomerImportRows>[1],
    private readonly options: CustomerImportWorkerOptions,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {
    this.rows = new CustomerImportRows(dataSource, customers, options.rowConcurrency);
    this.pause = new PollPause({ baseMs: options.pollIntervalMs });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.pause = new PollPause({ baseMs: this.options.pollIntervalMs }); // a stopped one ends every pause
    this.loop = (async () => {
      while (this.running) {
        let failed = false;
        const claimed = await this.claimWhileFree().catch((e) => ((failed = true), this.log('customer import: claiming jobs failed', e), 0));
        if (claimed > 0) this.pause.worked();
        await this.pause.pause({ afterError: failed });
      }
    })();
  }

  nudge(): void {
    this.pause.wake();
  }

  /** Stops taking rows, lets the ones in flight finish, leaves their batch unrecorded and releases the leases. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.retriesDue.cancel();
    this.pause.stop();
    await this.loop;
    await Promise.all(this.active.values());
  }

  /** How many jobs it claimed. */
  private async claimWhileFree(): Promise<number> {
    let claimed = 0;
    while (this.running && this.active.size < this.options.jobsConcurrentMax) {
      const job = await this.claim();
      if (!job) return claimed;
      claimed++;
      const run = this.run(job).finally(() => {
        this.active.delete(job.jobId);
        this.pause.wake();
      });
      this.active.set(job.jobId, run);
    }
    return claimed;
  }

  private async claim(): Promise<ClaimedJob | undefined> {
    const rows = await this.dataSource.query(
      `WITH claimed AS (
         UPDATE customer_import_jobs SET lease_owner = $1, lease_expires_at = now() + ($2::bigint * interval '1 millisecond')
          WHERE job_id = (SELECT job_id FROM customer_import_jobs
                           WHERE status IN ('PENDING', 'PROCESSING') AND (lease_expires_at IS NULL OR lease_expires_at < now())
                             AND (retry_at IS NULL OR retry_at <= now()) AND NOT (job_id = ANY($3::text[]))
                           ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING job_id, platform_id, mode, created_by, status, processed, attempts)
       SELECT * FROM claimed`,
      [this.owner, this.options.leaseMs, [...this.active.keys()]],
    );
    const r = rows[0];
    return r && { jobId: r.job_id, platformId: r.platform_id, mode: r.mode, createdBy: r.created_by, status: r.status, processed: r.processed, attempts: r.attempts };
  }

  private async run(job: ClaimedJob): Promise<void> {
    try {
      const parsed = await this.parse(job);
      if (!parsed) return;
      if (job.status === 'PENDING') await this.transition(job, { type: 'StartJob', total: parsed.rows.length, now: new Date().toISOString() });
      for (let from = job.processed; from < parsed.rows.length; from += this.options.batchSize) {
        if (!this.running) return;
        const batch = parsed.rows.slice(from, from + this.options.batchSize).map((cells, i) => prepareRow(parsed.header, cells, from + i + 1));
        const outcomes = await this.rows.run(job, batch, () => !this.running);
        if (!outcomes) return; // stopping: this batch stays unrecorded; the next run repeats it, idempotently
        await this.commit(job, from, outcomes);
      }
      await this.completeIfDone(job);
    } catch (error) {
      await this.postpone(job, error);
    } finally {
      await this.dataSource.query(`UPDATE customer_import_jobs SET lease_owner = NULL, lease_expires_at = NULL WHERE job_id = $1 AND lease_owner = $2`, [job.jobId, this.owner]).catch((e) => this.log('customer import: releasing a lease failed', e));
    }
  }

  /** The stored file, parsed; a file that cannot be processed fails the job (and is not retried). */
  private async parse(job: ClaimedJob): Promise<ParsedCustomerCsv | undefined> {
    const [file] = await this.dataSource.query(`SELECT content FROM customer_import_files WHERE job_id = $1`, [job.jobId]);
    if (!file) throw new Error(`the file of ${job.jobId} is missing`); // only a finished job loses it; retried, then visible in last_error
    try {
      return await parseCustomerCsv(file.content);
    } catch (error) {
      if (!(error instanceof CsvFileError)) throw error;
      await this.fail(job, error.error);
      return undefined;
    }
  }

  /** Outcomes and counters of one batch, together; only while this worker still holds the lease at `from`. */
  private async commit(job: ClaimedJob, from: number, outcomes: RowOutcome[]): Promise<void> {
    const succeeded = outcomes.filter((o) => o.status === 'SUCCEEDED').length;
    await this.dataSource.transaction(async (tx) => {
      const moved = await tx.query(
        `WITH moved AS (
           UPDATE customer_import_jobs SET processed = processed + $4, succeeded = succeeded + $5, failed = failed + $6, updated_at = now(),
                  lease_expires_at = now() + ($7::bigint * interval '1 millisecond')
            WHERE job_id = $1 AND lease_owner = $2 AND processed = $3 RETURNING processed)
         SELECT * FROM moved`,
        [job.jobId, this.owner, from, outcomes.length, succeeded, outcomes.length - succeeded, this.options.leaseMs],
      );
      if (moved.length === 0) throw new LeaseLostError(`lost the lease of ${job.jobId}`);
      await tx.query(
        `INSERT INTO customer_import_rows (job_id, row_number, status, customer_id, errors, recovered)
         SELECT $1, r.row_number, r.status, r.customer_id, r.errors, coalesce(r.recovered, false)
           FROM jsonb_to_recordset($2::jsonb) AS r(row_number int, status text, customer_id text, errors jsonb, recovered boolean)`,
        [job.jobId, JSON.stringify(outcomes.map((o) => ({ row_number: o.rowNumber, status: o.status, customer_id: o.customerId ?? null, errors: o.errors ?? null, recovered: o.recovered ?? false })))],
      );
    });
    job.processed = from + outcomes.length;
  }

  private async completeIfDone(job: ClaimedJob): Promise<void> {
    const [counts] = await this.dataSource.query(`SELECT total, processed, succeeded, failed FROM customer_import_jobs WHERE job_id = $1`, [job.jobId]);
    if (counts.processed !== counts.total) return;
    await this.transition(job, { type: 'CompleteJob', succeeded: counts.succeeded, failed: counts.failed, now: new Date().toISOString() });
  }

  private fail(job: ClaimedJob, error: CustomerImportRowError): Promise<void> {
    return this.transition(job, { type: 'FailJob', error, now: new Date().toISOString() });
  }

  /** A lifecycle event; a finished job's file is dropped in the same transaction (the rows table keeps the outcomes). */
  private async transition(job: ClaimedJob, command: CustomerImportJobCommand): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await this.executor.decideAndAppend(tx, {
        decider: customerImportJobDecider,
        streamId: job.jobId,
        platformId: job.platformId,
        metadata: { correlationId: job.jobId, actor: job.createdBy },
        command,
        project: projectCustomerImportJob,
      });
      if (command.type === 'CompleteJob' || command.type === 'FailJob') await tx.query(`DELETE FROM customer_import_files WHERE job_id = $1`, [job.jobId]);
    });
    if (command.type === 'StartJob') job.status = 'PROCESSING';
  }

  /** An outage (not a row's fault): the job stays where it is and is retried with a capped backoff. */
  private async postpone(job: ClaimedJob, error: unknown): Promise<void> {
    this.log(`customer import ${job.jobId}: run stopped, will retry`, error);
    const delayMs = Math.min(this.options.retryDelayMaxMs, 500 * 2 ** Math.min(job.attempts, 16));
    await this.dataSource
      .query(
        `UPDATE customer_import_jobs SET attempts = attempts + 1, last_error = $3, retry_at = now() + ($4::bigint * interval '1 millisecond')
          WHERE job_id = $1 AND lease_owner = $2`,
        [job.jobId, this.owner, String((error as Error)?.message ?? error).slice(0, 1000), delayMs],
      )
      .then(() => this.retriesDue.in(delayMs + 5), (e) => this.log('customer import: recording a failed run failed', e));
  }
}
