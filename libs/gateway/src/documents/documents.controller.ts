import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor, MulterModuleOptions } from '@nestjs/platform-express';
import { ApiTags } from '@nestjs/swagger';
import { memoryStorage } from 'multer';
import {
  ApiError,
  Document,
  DOCUMENT_FILE_SIZE_MAX_BYTES,
  DocumentFilePayload,
  DocumentsRpc,
  ListDocumentsQuery,
  Page,
  ReplaceDocumentRequest,
  UploadDocumentRequest,
} from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/**
 * multer keeps the file in memory (at most 10 MB, one file, ten text fields of at most 1 KB): the bytes travel on
 * to identity inside the RPC message, base64-encoded. File names are read as UTF-8, as browsers send them.
 */
const UPLOAD: MulterModuleOptions = {
  storage: memoryStorage(),
  limits: { fileSize: DOCUMENT_FILE_SIZE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
  defParamCharset: 'utf8',
};
const FILE_PART = 'PDF, JPEG or PNG, at most 10 MB; the type is recognised from the content, whatever the name says.';

/** Documents: KYC/KYB evidence of customers and beneficial owners. Writes need MANAGE, reads VIEW. */
@ApiTags('Documents')
@Controller('documents')
export class DocumentsController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  /** IdempotencyInterceptor again after the FileInterceptor: the global one cannot see an unread multipart body. */
  @Post()
  @RequirePermission('MANAGE')
  @UseInterceptors(FileInterceptor('file', UPLOAD), IdempotencyInterceptor)
  @ApiOperationSpec({
    summary: 'Upload a document',
    description: 'multipart/form-data with the file in the part `file`. The holder must be a customer or beneficial owner of this platform and mode (404 otherwise). Needs MANAGE.',
    multipart: { fields: UploadDocumentRequest, file: { required: true, description: FILE_PART } },
    ok: 'Document',
    okStatus: 201,
    errors: [400, 401, 403, 404, 413, 415, 429, 500, 503],
  })
  upload(@Req() request: AuthenticatedRequest, @UploadedFile() file: Express.Multer.File | undefined, @Body() body: UploadDocumentRequest): Promise<Document> {
    if (!file) throw new ApiError('INVALID_INPUT', 'a file is required', { errors: [{ field: 'file', message: 'send the file as the multipart/form-data part "file"' }] });
    return this.identity.call(DocumentsRpc.upload, { caller: request.caller, body: { ...body, file: toPayload(file) } });
  }

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List documents, optionally of one holder', query: ListDocumentsQuery, ok: { page: 'Document' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListDocumentsQuery): Promise<Page<Document>> {
    return this.identity.call(DocumentsRpc.list, { caller: request.caller, body: query });
  }

  @Get(':documentId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a document', ok: 'Document', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() request: AuthenticatedRequest, @Param('documentId') documentId: string): Promise<Document> {
    return this.identity.call(DocumentsRpc.get, { caller: request.caller, body: { documentId } });
  }

  @Put(':documentId')
  @RequirePermission('MANAGE')
  @UseInterceptors(FileInterceptor('file', UPLOAD))
  @ApiOperationSpec({
    summary: 'Replace a document\'s file and/or metadata',
    description:
      'multipart/form-data; the fields sent replace the stored ones, a `file` part replaces the file. The id and the holder stay. ' +
      'A metadata-only change may also be sent as application/json. A document submitted for verification cannot change (409). Needs MANAGE.',
    multipart: { fields: ReplaceDocumentRequest, file: { required: false, description: FILE_PART } },
    ok: 'Document',
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503],
  })
  replace(
    @Req() request: AuthenticatedRequest,
    @Param('documentId') documentId: string,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() body: ReplaceDocumentRequest,
  ): Promise<Document> {
    return this.identity.call(DocumentsRpc.replace, { caller: request.caller, body: { ...body, documentId, ...(file ? { file: toPayload(file) } : {}) } });
  }

  @Delete(':documentId')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Delete a document (not one submitted for verification: 409)', okStatus: 204, errors: [401, 403, 404, 409, 429, 500, 503] })
  async delete(@Req() request: AuthenticatedRequest, @Param('documentId') documentId: string): Promise<void> {
    await this.identity.call(DocumentsRpc.delete, { caller: request.caller, body: { documentId } });
  }
}

function toPayload(file: Express.Multer.File): DocumentFilePayload {
  return { fileName: file.originalname, base64: file.buffer.toString('base64') };
}
