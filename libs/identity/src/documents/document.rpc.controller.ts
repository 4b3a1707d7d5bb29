import { Controller, Inject } from '@nestjs/common';
import {
  Document,
  DocumentIdBody,
  DocumentsRpc,
  ListDocumentsQuery,
  Page,
  ReplaceDocumentBody,
  RpcRequest,
  UploadDocumentBody,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

/** Thin RPC adapter of the document endpoints; the gateway has validated the fields, the service checks the file. */
@Controller()
export class DocumentRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(DocumentsRpc.upload)
  upload(request: RpcRequest<UploadDocumentBody>): Promise<Document> {
    return this.identity.documents.upload(request.caller, request.body, new Date().toISOString());
  }

  @Handles(DocumentsRpc.list)
  list(request: RpcRequest<ListDocumentsQuery>): Promise<Page<Document>> {
    return this.identity.documents.list(request.caller, request.body);
  }

  @Handles(DocumentsRpc.get)
  get(request: RpcRequest<DocumentIdBody>): Promise<Document> {
    return this.identity.documents.get(request.caller, request.body.documentId);
  }

  @Handles(DocumentsRpc.replace)
  replace(request: RpcRequest<ReplaceDocumentBody>): Promise<Document> {
    return this.identity.documents.replace(request.caller, request.body, new Date().toISOString());
  }

  /** Answers `{}`: a void reply would not complete the caller's observable with a value. */
  @Handles(DocumentsRpc.delete)
  async delete(request: RpcRequest<DocumentIdBody>): Promise<Record<string, never>> {
    await this.identity.documents.delete(request.caller, request.body.documentId, new Date().toISOString());
    return {};
  }
}
