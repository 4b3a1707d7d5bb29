import type { DataSource } from 'typeorm';
import { ApiError, CallerContext, CreateCustomerRequest, CustomerImportRowError, FieldError, Mode, statusOf } from '@payments/contracts';
import { DomainError } from '@payments/eventsourcing';
import type { CustomerService } from '../customers/customer.service';
import { PreparedRow, toRowErrors } from './customer-csv-row';

/** The job as the worker holds it while it processes rows. */
export interface ImportJobRef {
  jobId: string;
  platformId: string;
  mode: Mode;
  createdBy: string;
}

export interface RowOutcome {
  rowNumber: number;
  status: 'SUCCEEDED' | 'FAILED';
  customerId?: string;
  errors?: CustomerImportRowError[];
  /** The customer was created by an earlier, interrupted run of this job; this run only recorded it. */
  recovered?: boolean;
}

/**
 * The correlation id of a row's customer creation: it lands in the CustomerCreated.v1 metadata, which is what
 * makes a row idempotent. A row whose create hits the uniqueness rule looks up who holds the key: a customer
 * created under this very (job, row) means an earlier run got that far before it stopped, so the row succeeded.
 */
export const rowCorrelationId = (jobId: string, rowNumber: number): string => `${jobId}#row-${rowNumber}`;
const ROW_OF = /#row-(\d+)$/;

/**
 * Runs one batch of rows through CustomerService.create, `concurrency` at a time. Rows that share a
 * platformCustomerId or umaAddress run in file order (each waits for the earlier one), so the first occurrence
 * wins exactly as if the file were processed one row after the other.
 */
export class CustomerImportRows {
  constructor(
    private readonly dataSource: DataSource,
    private readonly customers: Pick<CustomerService, 'create'>,
    private readonly concurrency: number,
  ) {}

  /** All outcomes in row order, or undefined when `stopping()` turned true before every row had started. */
  async run(job: ImportJobRef, rows: readonly PreparedRow[], stopping: () => boolean): Promise<RowOutcome[] | undefined> {
    const outcomes: RowOutcome[] = [];
    const lastByKey = new Map<string, Promise<unknown>>();
    let next = 0;
    let halted = false;
    let failure: unknown;
    const lane = async () => {
      while (next < rows.length && !halted) {
        if (stopping()) return void (halted = true);
        const index = next++;
        const row = rows[index];
        const keys = 'keys' in row ? row.keys : [];
        const before = keys.map((k) => lastByKey.get(k)).filter((p) => p !== undefined);
        const task = Promise.all(before).then(() => this.importRow(job, row));
        for (const key of keys) lastByKey.set(key, task.catch(() => undefined));
        try {
          outcomes[index] = await task;
        } catch (error) {
          failure ??= error;
          halted = true; // an infrastructure error: stop taking rows; the batch is retried as a whole
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, rows.length) }, lane));
    if (failure) throw failure;
    return halted ? undefined : outcomes;
  }

  private async importRow(job: ImportJobRef, row: PreparedRow): Promise<RowOutcome> {
    if ('errors' in row) return { rowNumber: row.rowNumber, status: 'FAILED', errors: row.errors };
    const caller: CallerContext = { platformId: job.platformId, mode: job.mode, clientId: job.createdBy, permissions: ['MANAGE'], correlationId: rowCorrelationId(job.jobId, row.rowNumber) };
    try {
      const customer = await this.customers.create(caller, row.request, new Date().toISOString());
      return { rowNumber: row.rowNumber, status: 'SUCCEEDED', customerId: customer.id };
    } catch (error) {
      const refusal = asRefusal(error);
      if (!refusal) throw error;
      const duplicate = refusal.code === 'CONFLICT' || refusal.code === 'UMA_ADDRESS_EXISTS' ? await this.holderOf(job, row.rowNumber, row.request) : undefined;
      if (duplicate?.own) return { rowNumber: row.rowNumber, status: 'SUCCEEDED', customerId: duplicate.customerId, recovered: true };
      const field = refusal.code === 'CONFLICT' ? 'platformCustomerId' : 'umaAddress';
      const fieldErrors = duplicate?.earlierRow ? [{ field, message: `${field} repeats row ${duplicate.earlierRow} of this file` }] : refusal.fieldErrors;
      return { rowNumber: row.rowNumber, status: 'FAILED', errors: toRowErrors(row.rowNumber, row.correlationId, refusal.code, refusal.message, fieldErrors) };
    }
  }

  /** Who holds the row's platformCustomerId or umaAddress: this row (an earlier run), an earlier row, or someone else. */
  private async holderOf(job: ImportJobRef, rowNumber: number, request: CreateCustomerRequest): Promise<{ own: boolean; customerId: string; earlierRow?: number } | undefined> {
    const holders: { customer_id: string; correlation_id: string | null }[] = await this.dataSource.query(
      `SELECT c.customer_id, e.metadata->>'correlationId' AS correlation_id
         FROM customers c JOIN events e ON e.stream_id = c.customer_id AND e.stream_version = 1
        WHERE c.platform_id = $1 AND c.mode = $2 AND c.deleted_at IS NULL AND (c.platform_customer_id = $3 OR lower(c.uma_address) = lower($4))`,
      [job.platformId, job.mode, request.platformCustomerId, request.umaAddress],
    );
    const own = holders.find((h) => h.correlation_id === rowCorrelationId(job.jobId, rowNumber));
    if (own) return { own: true, customerId: own.customer_id };
    const sibling = holders.find((h) => h.correlation_id?.startsWith(`${job.jobId}#`));
    if (!sibling) return undefined;
    return { own: false, customerId: sibling.customer_id, earlierRow: Number(ROW_OF.exec(sibling.correlation_id!)?.[1]) };
  }
}

/** A refusal the row's data caused (any 4xx rule), as opposed to an outage, which must not become a row error. */
function asRefusal(error: unknown): { code: string; message: string; fieldErrors?: FieldError[] } | undefined {
  if (!(error instanceof ApiError) && !(error instanceof DomainError)) return undefined;
  const status = error instanceof ApiError ? error.status : statusOf(error.code);
  if (status < 400 || status >= 500) return undefined;
  return { code: error.code, message: error.message, fieldErrors: (error.details?.errors as FieldError[] | undefined) ?? undefined };
}
