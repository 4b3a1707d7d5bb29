import { CUSTOMER_CSV_COLUMNS, CUSTOMER_IMPORT_ERRORS_MAX, CUSTOMER_IMPORT_JOB_STATUSES, KYC_LINK_PROVIDERS } from '@payments/contracts';

const count = { type: 'integer', minimum: 0 };

/** Response schemas of the bulk CSV import and the hosted KYC link (merged into RESPONSE_SCHEMAS). */
export const CUSTOMER_IMPORT_SCHEMAS = {
  CustomerImportJobAccepted: {
    type: 'object',
    required: ['jobId', 'status'],
    properties: {
      jobId: { type: 'string', pattern: '^Job:', description: 'Poll GET /customers/bulk/jobs/{jobId}.' },
      status: { type: 'string', enum: ['PENDING'] },
    },
  },
  CustomerImportJob: {
    type: 'object',
    required: ['id', 'status', 'progress', 'errors', 'fileName', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'string', pattern: '^Job:' },
      status: { type: 'string', enum: [...CUSTOMER_IMPORT_JOB_STATUSES] },
      progress: {
        type: 'object',
        required: ['total', 'processed', 'succeeded', 'failed'],
        properties: {
          total: { ...count, description: 'Data rows in the file; known from PROCESSING on (0 while PENDING).' },
          processed: count,
          succeeded: { ...count, description: 'Rows that created a customer.' },
          failed: { ...count, description: 'Rows refused; each has at least one entry in `errors`.' },
        },
      },
      errors: {
        type: 'array',
        description: `Per-row problems in row order, at most ${CUSTOMER_IMPORT_ERRORS_MAX}. A FAILED job has one entry: why the file could not be processed.`,
        items: {
          type: 'object',
          required: ['row', 'code', 'message'],
          properties: {
            row: { type: 'integer', minimum: 1, description: 'Data row, 1-based: row 1 is the line after the header (blank lines are not counted).' },
            field: { type: 'string', enum: [...CUSTOMER_CSV_COLUMNS], description: 'The column to fix, when the problem belongs to one.' },
            code: { type: 'string', examples: ['INVALID_INPUT', 'CONFLICT', 'UMA_ADDRESS_EXISTS'] },
            message: { type: 'string' },
            correlationId: { type: 'string', description: "The row's platformCustomerId." },
          },
        },
      },
      errorsTruncated: { type: 'boolean', description: 'Present (true) when more errors exist than are listed.' },
      fileName: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      completedAt: { type: 'string', format: 'date-time', description: 'When the job reached COMPLETED or FAILED.' },
    },
  },
  KycLink: {
    type: 'object',
    required: ['kycUrl', 'expiresAt', 'provider'],
    properties: {
      kycUrl: { type: 'string', format: 'uri', description: 'Single-use hosted verification page; hand it to the end user.' },
      expiresAt: { type: 'string', format: 'date-time', description: '24 hours after creation.' },
      provider: { type: 'string', enum: [...KYC_LINK_PROVIDERS] },
      token: { type: 'string', description: 'Only for providers with an embedded SDK; not returned by the sandbox.' },
    },
  },
} as const satisfies Record<string, Record<string, unknown>>;
