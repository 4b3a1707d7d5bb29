/**
 * Bulk customer import from CSV (POST /customers/bulk/csv, GET /customers/bulk/jobs/{jobId}). The columns are the
 * seed's list, spelled exactly; docs/customers.md says how each maps onto the Customer of POST /customers.
 */
export const CUSTOMER_CSV_COLUMNS = [
  'umaAddress', 'platformCustomerId', 'customerType',
  'fullName', 'birthDate', 'email',
  'businessLegalName', 'businessRegistrationNumber', 'businessTaxId',
  'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country',
  'platformAccountId', 'description',
] as const;
export type CustomerCsvColumn = (typeof CUSTOMER_CSV_COLUMNS)[number];

/** Every file's header must name these; the type-specific columns may be left out when no row needs them. */
export const CUSTOMER_CSV_HEADER_REQUIRED: readonly CustomerCsvColumn[] = ['umaAddress', 'platformCustomerId', 'customerType'];

/** Upload limit: a 10,000-row file is about 2 MB, so 20 MB leaves room for long addresses and descriptions. */
export const CUSTOMER_CSV_SIZE_MAX_BYTES = 20 * 1024 * 1024;

export const CUSTOMER_IMPORT_JOB_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type CustomerImportJobStatus = (typeof CUSTOMER_IMPORT_JOB_STATUSES)[number];

/** The CSV as it crosses the gateway → identity RPC: decoded UTF-8 text (a CSV is text; base64 would add a third). */
export interface CustomerCsvUploadBody {
  fileName: string;
  csv: string;
}

/** 202 answer of the upload. */
export interface CustomerImportJobAccepted {
  /**
   * Poll GET /customers/bulk/jobs/{jobId}.
   * @pattern ^Job:
   */
  jobId: string;
  status: 'PENDING';
}

/**
 * One problem of one data row (row 1 is the first line after the header). `field` is the CSV column when the
 * problem belongs to one; `correlationId` is the row's platformCustomerId, so a platform can match rows to its
 * records without counting lines. A file-level failure (FAILED job) has one entry for the row where it stopped.
 */
export interface CustomerImportRowError {
  /**
   * Data row, 1-based: row 1 is the line after the header (blank lines are not counted).
   * @asType integer
   * @minimum 1
   */
  row: number;
  /** The column to fix, when the problem belongs to one. */
  field?: string;
  /** @examples ["INVALID_INPUT", "CONFLICT", "UMA_ADDRESS_EXISTS"] */
  code: string;
  message: string;
  /** The row's platformCustomerId. */
  correlationId?: string;
}

/** Row counts of an import job. */
export interface CustomerImportProgress {
  /**
   * Data rows in the file; known once the file has been parsed, i.e. from PROCESSING on (0 while PENDING).
   * @asType integer
   * @minimum 0
   */
  total: number;
  /**
   * @asType integer
   * @minimum 0
   */
  processed: number;
  /**
   * Rows that created a customer.
   * @asType integer
   * @minimum 0
   */
  succeeded: number;
  /**
   * The published name of `succeeded` (always equal to it).
   * @asType integer
   * @minimum 0
   */
  successful: number;
  /**
   * Rows refused; each has at least one entry in `errors`.
   * @asType integer
   * @minimum 0
   */
  failed: number;
}

export interface CustomerImportJob {
  /** @pattern ^Job: */
  id: string;
  status: CustomerImportJobStatus;
  progress: CustomerImportProgress;
  /**
   * Per-row problems in row order, at most 1000 (`errorsTruncated` says when more exist). A FAILED job has one entry: why the file could not be processed.
   */
  errors: CustomerImportRowError[];
  /** Present (true) when more errors exist than are listed. */
  errorsTruncated?: boolean;
  fileName: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
  /**
   * When the job reached COMPLETED or FAILED.
   * @format date-time
   */
  completedAt?: string;
}

export const CUSTOMER_IMPORT_ERRORS_MAX = 1000;

export const isJobId = (value: string): boolean => /^Job:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
