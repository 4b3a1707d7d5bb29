import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  CUSTOMER_CSV_SIZE_MAX_BYTES,
  CUSTOMER_IMPORT_ERRORS_MAX,
  CustomerCsvUploadBody,
  CustomerImportJob,
  CustomerImportJobAccepted,
  CustomerImportRowError,
  isJobId,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, IdempotencyClaims } from '@payments/eventsourcing';
import { idempotencyScopeOf } from '@payments/runtime';
import { readHeader } from './customer-csv';
import { customerImportJobDecider } from './customer-import.decider';
import { projectCustomerImportJob } from './customer-import.projection';
import type { CustomerImportWorker } from './customer-import.worker';

interface JobRow {
  job_id: string;
  status: CustomerImportJob['status'];
  file_name: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  failure: CustomerImportRowError | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

/** Bulk customer import: the upload (checked, stored, a job created) and the job's status. The worker does the rows. */
export class CustomerImportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    readonly worker: CustomerImportWorker,
    private readonly claims: IdempotencyClaims,
  ) {}

  /** One job per Idempotency-Key: a retry (also after a crash) answers the job accepted by the first. */
  upload(caller: CallerContext, body: CustomerCsvUploadBody, now: string): Promise<CustomerImportJobAccepted> {
    const jobId = `Job:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'customer-import', jobId, (claim) => this.createJob(caller, body, now, jobId, claim), async (id) => ({ jobId: id, status: 'PENDING' }));
  }

  /** Checks the header at once (400), stores the file with a new PENDING job in one transaction, wakes the worker. */
  private async createJob(caller: CallerContext, body: CustomerCsvUploadBody, now: string, jobId: string, claim: ClaimInTransaction): Promise<CustomerImportJobAccepted> {
    const sizeBytes = Buffer.byteLength(body.csv, 'utf8');
    if (sizeBytes > CUSTOMER_CSV_SIZE_MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'the file is too large');
    if (body.csv.includes('\u0000')) throw new ApiError('INVALID_INPUT', 'the file is not text', { errors: [{ field: 'file', message: 'a CSV file in UTF-8 is expected' }] });
    readHeader(body.csv);
    const sha256 = createHash('sha256').update(body.csv, 'utf8').digest('hex');
    await this.dataSource.transaction(async (tx) => {
      await this.executor.decideAndAppend(tx, {
        decider: customerImportJobDecider,
        streamId: jobId,
        platformId: caller.platformId,
        metadata: { correlationId: caller.correlationId, actor: caller.clientId },
        command: { type: 'CreateJob', jobId, platformId: caller.platformId, mode: caller.mode, fileName: body.fileName.slice(0, 255), sizeBytes, sha256, createdBy: caller.clientId, now },
        project: projectCustomerImportJob,
      });
      await claim(tx);
      await tx.query(`INSERT INTO customer_import_files (job_id, content) VALUES ($1, $2)`, [jobId, body.csv]);
    });
    this.worker.nudge();
    return { jobId, status: 'PENDING' };
  }

  async get(caller: CallerContext, jobId: string): Promise<CustomerImportJob> {
    const [job]: JobRow[] = isJobId(jobId)
      ? await this.dataSource.query(`SELECT * FROM customer_import_jobs WHERE job_id = $1 AND platform_id = $2 AND mode = $3`, [jobId, caller.platformId, caller.mode])
      : [];
    if (!job) throw new ApiError('BULK_UPLOAD_JOB_NOT_FOUND', 'import job not found');
    const { errors, truncated } = job.failure ? { errors: [job.failure], truncated: false } : await this.rowErrors(jobId);
    return {
      id: job.job_id,
      status: job.status,
      progress: { total: job.total, processed: job.processed, succeeded: job.succeeded, successful: job.succeeded, failed: job.failed },
      errors,
      ...(truncated ? { errorsTruncated: true } : {}),
      fileName: job.file_name,
      createdAt: job.created_at.toISOString(),
      updatedAt: job.updated_at.toISOString(),
      ...(job.completed_at ? { completedAt: job.completed_at.toISOString() } : {}),
    };
  }

  private async rowErrors(jobId: string): Promise<{ errors: CustomerImportRowError[]; truncated: boolean }> {
    const rows: { errors: CustomerImportRowError[] }[] = await this.dataSource.query(
      `SELECT errors FROM customer_import_rows WHERE job_id = $1 AND status = 'FAILED' ORDER BY row_number LIMIT $2`,
      [jobId, CUSTOMER_IMPORT_ERRORS_MAX + 1],
    );
    const errors = rows.flatMap((r) => r.errors);
    return { errors: errors.slice(0, CUSTOMER_IMPORT_ERRORS_MAX), truncated: errors.length > CUSTOMER_IMPORT_ERRORS_MAX };
  }
}
