import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from './optional-not-null';
import { PageQuery } from './pagination/pagination';
import { IsCountryCode } from './validators';

/** DocumentType of the spec (interop §6.4). */
export const DOCUMENT_TYPES = [
  'PASSPORT', 'DRIVERS_LICENSE', 'NATIONAL_ID', 'PROOF_OF_ADDRESS', 'BANK_STATEMENT', 'TAX_RETURN',
  'CERTIFICATE_OF_INCORPORATION', 'ARTICLES_OF_INCORPORATION', 'ARTICLES_OF_ASSOCIATION', 'STATE_REGISTRY_EXCERPT',
  'GOOD_STANDING_CERTIFICATE', 'INFORMATION_STATEMENT', 'INCUMBENCY_CERTIFICATE', 'BUSINESS_LICENSE',
  'SHAREHOLDER_REGISTER', 'POWER_OF_ATTORNEY', 'UTILITY_BILL', 'ELECTRICITY_BILL', 'RENT_OR_LEASE_AGREEMENT',
  'DIRECTOR_REGISTRY', 'TRUST_AGREEMENT', 'STATE_COMPANY_REGISTRY', 'PARTNERSHIP_CONTROL_AGREEMENT',
  'PARTNERSHIP_AGREEMENT', 'SELFIE', 'OTHER',
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_SIDES = ['FRONT', 'BACK'] as const;
export type DocumentSide = (typeof DOCUMENT_SIDES)[number];

/** The file types accepted, recognised by their first bytes (never by name or declared type). */
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

/** Spec limit for one document file (Limits table: 10 MB). */
export const DOCUMENT_FILE_SIZE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The two kinds of document holder, by id prefix. Only the prefix is checked here: whether the id exists for the
 * caller is answered by a 404, the same for a malformed, missing or foreign holder.
 */
export const DOCUMENT_HOLDER_ID = /^(Customer|BeneficialOwner):[\x21-\x7e]{1,200}$/;

const TEXT_FIELD_LENGTH_MAX = 255;

/** Metadata fields a document may carry besides its holder; shared by upload and replace. */
class DocumentMetadataFields {
  @OptionalNotNull() @IsIn(DOCUMENT_SIDES) side?: DocumentSide;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(TEXT_FIELD_LENGTH_MAX) documentNumber?: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(TEXT_FIELD_LENGTH_MAX) issuingAuthority?: string;
}

/** POST /documents: the text fields of the multipart body (the `file` part is handled apart). */
export class UploadDocumentRequest extends DocumentMetadataFields {
  @IsString() @MaxLength(TEXT_FIELD_LENGTH_MAX) @Matches(DOCUMENT_HOLDER_ID, { message: 'documentHolder must be a Customer or BeneficialOwner id' })
  documentHolder!: string;
  @IsIn(DOCUMENT_TYPES) documentType!: DocumentType;
  @IsCountryCode() country!: string;
}

/** PUT /documents/{id}: the fields sent replace the stored ones; `documentHolder` cannot change (unknown field). */
export class ReplaceDocumentRequest extends DocumentMetadataFields {
  @OptionalNotNull() @IsIn(DOCUMENT_TYPES) documentType?: DocumentType;
  @OptionalNotNull() @IsCountryCode() country?: string;
}

/** GET /documents: pagination plus the holder filter. */
export class ListDocumentsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(TEXT_FIELD_LENGTH_MAX) documentHolder?: string;
}

/**
 * A file as it crosses the gateway → identity RPC: the bytes base64-encoded inside the JSON message. Fine up to
 * the 10 MB limit (about 13.4 MB of base64); a larger limit would call for streaming to storage instead.
 */
export interface DocumentFilePayload {
  fileName: string;
  base64: string;
}

/** Body of the upload RPC: the validated fields and the file. */
export type UploadDocumentBody = UploadDocumentRequest & { file: DocumentFilePayload };

/** Body of the replace RPC: the fields to change and, optionally, the new file. */
export type ReplaceDocumentBody = ReplaceDocumentRequest & { documentId: string; file?: DocumentFilePayload };

/** Document as the API returns it. */
export interface Document {
  /** @pattern ^Document: */
  id: string;
  /**
   * The customer or beneficial owner the document belongs to.
   * @pattern ^(Customer|BeneficialOwner):
   */
  documentHolder: string;
  documentType: DocumentType;
  side?: DocumentSide;
  /** ISO 3166-1 alpha-2 country that issued the document. */
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
  /** The name the file was uploaded with. */
  fileName: string;
  /** Recognised from the file content, not from its name. */
  contentType: DocumentContentType;
  /**
   * @asType integer
   * @minimum 1
   */
  sizeBytes: number;
  /**
   * SHA-256 of the file, hex.
   * @pattern ^[0-9a-f]{64}$
   */
  sha256: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export const isDocumentId = (value: string): boolean => /^Document:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
