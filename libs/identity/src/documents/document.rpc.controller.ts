import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Document, DocumentsRpc, ListDocumentsQuery, Page, ReplaceDocumentBody, RpcRequest, UploadDocumentBody } from '@payments/contracts';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the document endpoints; the gateway has validated the fields, the service checks the file. */
@Controller()
export class DocumentRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(DocumentsRpc.upload)
  upload(@Payload() request: RpcRequest<UploadDocumentBody>): Promise<Document> {
    return this.identity.documents.upload(request.caller, request.body, new Date().toISOString());
  }

  @MessagePattern(DocumentsRpc.list)
  list(@Payload() request: RpcRequest<ListDocumentsQuery>): Promise<Page<Document>> {
    return this.identity.documents.list(request.caller, request.body);
  }

  @MessagePattern(DocumentsRpc.get)
  get(@Payload() request: RpcRequest<{ documentId: string }>): Promise<Document> {
    return this.identity.documents.get(request.caller, request.body.documentId);
  }

  @MessagePattern(DocumentsRpc.replace)
  replace(@Payload() request: RpcRequest<ReplaceDocumentBody>): Promise<Document> {
    return this.identity.documents.replace(request.caller, request.body, new Date().toISOString());
  }

  /** Answers `{}`: a void reply would not complete the caller's observable with a value. */
  @MessagePattern(DocumentsRpc.delete)
  async delete(@Payload() request: RpcRequest<{ documentId: string }>): Promise<Record<string, never>> {
    await this.identity.documents.delete(request.caller, request.body.documentId, new Date().toISOString());
    return {};
  }
}
