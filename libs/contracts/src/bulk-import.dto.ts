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
  jobId: string;
  status: 'PENDING';
}

/**
 * One problem of one data row (row 1 is the first line after the header). `field` is the CSV column when the
 * problem belongs to one; `correlationId` is the row's platformCustomerId, so a platform can match rows to its
 * records without counting lines. A file-level failure (FAILED job) has one entry for the row where it stopped.
 */
export interface CustomerImportRowError {
  row: number;
  field?: string;
  code: string;
  message: string;
  correlationId?: string;
}

export interface CustomerImportJob {
  id: string;
  status: CustomerImportJobStatus;
  /** `total` is known once the file has been parsed, i.e. from PROCESSING on (0 while PENDING). */
  progress: { total: number; processed: number; succeeded: number; failed: number };
  /** In row order; at most CUSTOMER_IMPORT_ERRORS_MAX entries, `errorsTruncated` says when more exist. */
  errors: CustomerImportRowError[];
  errorsTruncated?: boolean;
  fileName: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
}

export const CUSTOMER_IMPORT_ERRORS_MAX = 1000;

export const isJobId = (value: string): boolean => /^Job:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
