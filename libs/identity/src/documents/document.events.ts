import type { Catalogued, DocumentContentType, DocumentSide, DocumentType, IDENTITY_EVENTS, Mode } from '@payments/contracts';

/**
 * What the stream records about a document: its metadata and the fingerprint of its file (name, type, size,
 * SHA-256 and the storage key). Never the bytes: they live in DocumentStorage, written in the same transaction.
 */
export interface DocumentMetadata {
  documentType: DocumentType;
  side?: DocumentSide;
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
}

export interface DocumentFile {
  fileName: string;
  contentType: DocumentContentType;
  sizeBytes: number;
  sha256: string;
  /** Where DocumentStorage keeps the bytes. */
  fileKey: string;
}

interface DocumentScope {
  documentId: string;
  platformId: string;
  mode: Mode;
  documentHolder: string;
}

export type DocumentUploaded = {
  type: 'DocumentUploaded.v1';
  data: DocumentScope & DocumentMetadata & DocumentFile & { uploadedAt: string };
};

/** The document as it is after the replacement (metadata and file), so a reader needs no earlier event. */
export type DocumentReplaced = {
  type: 'DocumentReplaced.v1';
  data: DocumentScope & DocumentMetadata & DocumentFile & { previousFileKey: string; replacedAt: string };
};

/** Submitted for verification: from now on the document is evidence and can be neither replaced nor deleted. */
export type DocumentSubmitted = {
  type: 'DocumentSubmitted.v1';
  data: DocumentScope & { submittedAt: string };
};

export type DocumentDeleted = {
  type: 'DocumentDeleted.v1';
  data: DocumentScope & { fileKey: string; deletedAt: string };
};

export type DocumentEvent = DocumentUploaded | DocumentReplaced | DocumentSubmitted | DocumentDeleted;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, DocumentEvent> = true;
