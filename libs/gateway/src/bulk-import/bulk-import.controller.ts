import { Controller, Get, HttpCode, Inject, Param, Post, Req, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, MulterModuleOptions } from '@nestjs/platform-express';
import { ApiTags } from '@nestjs/swagger';
import { memoryStorage } from 'multer';
import { ApiError, CUSTOMER_CSV_SIZE_MAX_BYTES, CustomerImportJob, CustomerImportJobAccepted, CustomerImportsRpc } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/** One part, the file, at most 20 MB in memory; no text fields (a field is a 400 from multer's limit). */
const UPLOAD: MulterModuleOptions = { storage: memoryStorage(), limits: { fileSize: CUSTOMER_CSV_SIZE_MAX_BYTES, files: 1, fields: 0 }, defParamCharset: 'utf8' };
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The upload takes no text fields: an empty class documents the multipart body as the `file` part alone. */
class CustomerCsvUploadFields {}

const FILE_PART =
  'CSV in UTF-8 (a BOM is fine), at most 20 MB, header line first. Columns: umaAddress, platformCustomerId, customerType (all rows); ' +
  'fullName, birthDate, email (INDIVIDUAL); businessLegalName, businessRegistrationNumber, businessTaxId (BUSINESS); addressLine1, addressLine2, ' +
  'city, state, postalCode, country; platformAccountId, description. See docs/customers.md for the rules.';

/**
 * Bulk customer import. Registered before CustomersController, so `/customers/bulk/...` is never read as a
 * customer id by a `/customers/:customerId` route.
 */
@ApiTags('Customers')
@Controller('customers/bulk')
export class BulkImportController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  /** IdempotencyInterceptor after the FileInterceptor: the global one cannot see an unread multipart body. */
  @Post('csv')
  @HttpCode(202)
  @RequirePermission('MANAGE')
  @UseInterceptors(FileInterceptor('file', UPLOAD), IdempotencyInterceptor)
  @ApiOperationSpec({
    summary: 'Import customers from a CSV file (asynchronous)',
    description:
      'multipart/form-data with the CSV in the part `file`. A wrong header (unknown, repeated or missing column) is a 400 at once; the rows are ' +
      'processed in the background, each exactly as POST /customers would, and reported by GET /customers/bulk/jobs/{jobId}. Needs MANAGE.',
    multipart: { fields: CustomerCsvUploadFields, file: { required: true, description: FILE_PART } },
    ok: 'CustomerImportJobAccepted',
    okStatus: 202,
    errors: [400, 401, 403, 413, 415, 429, 500, 503],
  })
  upload(@Req() request: AuthenticatedRequest, @UploadedFile() file: Express.Multer.File | undefined): Promise<CustomerImportJobAccepted> {
    if (!file) throw new ApiError('INVALID_INPUT', 'a CSV file is required', { errors: [{ field: 'file', message: 'send the CSV as the multipart/form-data part "file"' }] });
    return this.identity.call(CustomerImportsRpc.upload, { caller: request.caller, body: { fileName: file.originalname, csv: decodeUtf8(file.buffer) } });
  }

  @Get('jobs/:jobId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Status, progress and per-row errors of a CSV import job', ok: 'CustomerImportJob', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() request: AuthenticatedRequest, @Param('jobId') jobId: string): Promise<CustomerImportJob> {
    return this.identity.call(CustomerImportsRpc.get, { caller: request.caller, body: { jobId } });
  }
}

/** Whatever the part's declared type (browsers send text/csv, Excel's vnd.ms-excel, curl octet-stream), the bytes must be UTF-8 text. */
function decodeUtf8(bytes: Buffer): string {
  try {
    const text = UTF8.decode(bytes);
    if (!text.includes('\u0000')) return text;
  } catch {
    // not UTF-8: answered below
  }
  throw new ApiError('INVALID_INPUT', 'the file is not UTF-8 text', { errors: [{ field: 'file', message: 'a CSV file in UTF-8 is expected' }] });
}
