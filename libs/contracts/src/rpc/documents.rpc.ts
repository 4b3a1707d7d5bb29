import type { Document, ListDocumentsQuery, ReplaceDocumentBody, UploadDocumentBody } from '../documents.dto';
import type { Page } from '../pagination';
import { rpc } from './rpc-contract';

/**
 * RPC contracts of the document endpoints (identity service). Upload and replace carry the file as base64 inside
 * the JSON message (`DocumentFilePayload`), which the 10 MB limit keeps to about 13.4 MB per message.
 */
export const DocumentsRpc = {
  upload: rpc<UploadDocumentBody, Document>('identity.documents.upload'),
  list: rpc<ListDocumentsQuery, Page<Document>>('identity.documents.list'),
  get: rpc<DocumentIdBody, Document>('identity.documents.get'),
  replace: rpc<ReplaceDocumentBody, Document>('identity.documents.replace'),
  /** Answers `{}`: a void reply would not complete the caller's observable with a value. */
  delete: rpc<DocumentIdBody, Record<string, never>>('identity.documents.delete'),
} as const;

export interface DocumentIdBody {
  documentId: string;
}
