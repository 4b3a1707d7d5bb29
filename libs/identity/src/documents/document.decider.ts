import { isValid as isCountry } from 'i18n-iso-countries';
import type { FieldError, Mode } from '@payments/contracts';
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_FILE_SIZE_MAX_BYTES, DOCUMENT_SIDES, DOCUMENT_TYPES } from '@payments/contracts';
import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import { DocumentEvent, DocumentFile, DocumentMetadata } from './document.events';

interface DocumentFields {
  documentId: string;
  platformId: string;
  mode: Mode;
  documentHolder: string;
  metadata: DocumentMetadata;
  file: DocumentFile;
}

/** UPLOADED documents can change; SUBMITTED ones are evidence of a verification and stay as they are. */
export type DocumentState =
  | { status: 'NONE' }
  | ({ status: 'UPLOADED' } & DocumentFields)
  | ({ status: 'SUBMITTED' } & DocumentFields)
  | ({ status: 'DELETED' } & DocumentFields);

interface Tenant {
  platformId: string;
  mode: Mode;
}

export type DocumentCommand =
  | ({ type: 'UploadDocument'; documentId: string; documentHolder: string; metadata: DocumentMetadata; file: DocumentFile; now: string } & Tenant)
  | ({ type: 'ReplaceDocument'; changes: Partial<DocumentMetadata>; file?: DocumentFile; now: string } & Tenant)
  | { type: 'MarkDocumentSubmitted'; now: string }
  | ({ type: 'DeleteDocument'; now: string } & Tenant);

const TEXT_LENGTH_MAX = 255;

export const documentDecider: Decider<DocumentState, DocumentCommand, DocumentEvent> = {
  initialState: { status: 'NONE' },

  decide(command, state) {
    switch (command.type) {
      case 'UploadDocument':
        return upload(command, state);
      case 'ReplaceDocument':
        return replace(command, state);
      case 'MarkDocumentSubmitted':
        return markSubmitted(command, state);
      case 'DeleteDocument':
        return remove(command, state);
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DocumentUploaded.v1': {
        const { documentId, platformId, mode, documentHolder, documentType, side, country, documentNumber, issuingAuthority } = event.data;
        const { fileName, contentType, sizeBytes, sha256, fileKey } = event.data;
        const metadata = { documentType, side, country, documentNumber, issuingAuthority };
        return { status: 'UPLOADED', documentId, platformId, mode, documentHolder, metadata, file: { fileName, contentType, sizeBytes, sha256, fileKey } };
      }
      case 'DocumentReplaced.v1': {
        if (state.status !== 'UPLOADED') return state;
        const { documentType, side, country, documentNumber, issuingAuthority, fileName, contentType, sizeBytes, sha256, fileKey } = event.data;
        return { ...state, metadata: { documentType, side, country, documentNumber, issuingAuthority }, file: { fileName, contentType, sizeBytes, sha256, fileKey } };
      }
      case 'DocumentSubmitted.v1':
        return state.status === 'UPLOADED' ? { ...state, status: 'SUBMITTED' } : state;
      case 'DocumentDeleted.v1':
        return state.status === 'UPLOADED' ? { ...state, status: 'DELETED' } : state;
      default:
        return assertNever(event);
    }
  },
};

type Command<T extends DocumentCommand['type']> = Extract<DocumentCommand, { type: T }>;

function upload(command: Command<'UploadDocument'>, state: DocumentState): Decision<DocumentEvent> {
  if (state.status !== 'NONE') return new DomainError('CONFLICT', `document ${command.documentId} already exists`);
  const errors = [...validateMetadata(command.metadata), ...validateFile(command.file)];
  if (errors.length > 0) return invalid(errors);
  const { documentId, platformId, mode, documentHolder } = command;
  return [{ type: 'DocumentUploaded.v1', data: { documentId, platformId, mode, documentHolder, ...command.metadata, ...command.file, uploadedAt: command.now } }];
}

function replace(command: Command<'ReplaceDocument'>, state: DocumentState): Decision<DocumentEvent> {
  if (!visibleTo(state, command)) return notFound();
  if (state.status === 'SUBMITTED') return new DomainError('CONFLICT', 'this document was submitted for verification and can no longer be changed; upload a new document instead');
  const changes = definedOnly(command.changes);
  if (Object.keys(changes).length === 0 && !command.file) return invalid([{ field: 'file', message: 'send a new file or at least one field to change' }]);
  const metadata: DocumentMetadata = { ...state.metadata, ...changes };
  const file = command.file ?? state.file;
  const errors = [...validateMetadata(metadata), ...(command.file ? validateFile(command.file) : [])];
  if (errors.length > 0) return invalid(errors);
  // A replacement that changes nothing appends nothing (same as a PATCH of equal values).
  if (sameFields(metadata, state.metadata) && sameFields(file, state.file)) return [];
  const { documentId, platformId, mode, documentHolder } = state;
  const data = { documentId, platformId, mode, documentHolder, ...metadata, ...file, previousFileKey: state.file.fileKey, replacedAt: command.now };
  return [{ type: 'DocumentReplaced.v1', data }];
}

/** Idempotent: the verification that submits a document twice (a retry) appends one event. */
function markSubmitted(command: Command<'MarkDocumentSubmitted'>, state: DocumentState): Decision<DocumentEvent> {
  if (state.status === 'SUBMITTED') return [];
  if (state.status !== 'UPLOADED') return notFound();
  const { documentId, platformId, mode, documentHolder } = state;
  return [{ type: 'DocumentSubmitted.v1', data: { documentId, platformId, mode, documentHolder, submittedAt: command.now } }];
}

function remove(command: Command<'DeleteDocument'>, state: DocumentState): Decision<DocumentEvent> {
  if (!visibleTo(state, command)) return notFound();
  if (state.status === 'SUBMITTED') return new DomainError('CONFLICT', 'this document was submitted for verification and cannot be deleted');
  const { documentId, platformId, mode, documentHolder } = state;
  return [{ type: 'DocumentDeleted.v1', data: { documentId, platformId, mode, documentHolder, fileKey: state.file.fileKey, deletedAt: command.now } }];
}

/** Another tenant's document, or a deleted one, does not exist for the caller: the same 404 as a missing one. */
function visibleTo(state: DocumentState, tenant: Tenant): state is Extract<DocumentState, { status: 'UPLOADED' | 'SUBMITTED' }> {
  return (state.status === 'UPLOADED' || state.status === 'SUBMITTED') && state.platformId === tenant.platformId && state.mode === tenant.mode;
}

function validateMetadata(metadata: DocumentMetadata): FieldError[] {
  const errors: FieldError[] = [];
  if (!DOCUMENT_TYPES.includes(metadata.documentType)) errors.push({ field: 'documentType', message: `documentType must be one of ${DOCUMENT_TYPES.join(', ')}` });
  if (metadata.side !== undefined && !DOCUMENT_SIDES.includes(metadata.side)) errors.push({ field: 'side', message: 'side must be FRONT or BACK' });
  if (typeof metadata.country !== 'string' || !/^[A-Z]{2}$/.test(metadata.country) || !isCountry(metadata.country)) {
    errors.push({ field: 'country', message: 'country must be an ISO 3166-1 alpha-2 country code' });
  }
  for (const field of ['documentNumber', 'issuingAuthority'] as const) {
    const value = metadata[field];
    if (value !== undefined && (typeof value !== 'string' || value.length === 0 || value.length > TEXT_LENGTH_MAX)) {
      errors.push({ field, message: `${field} must be 1-${TEXT_LENGTH_MAX} characters` });
    }
  }
  return errors;
}

function validateFile(file: DocumentFile): FieldError[] {
  const problems: string[] = [];
  // Control characters would end up in Content-Disposition headers and logs.
  if (file.fileName.length === 0 || file.fileName.length > TEXT_LENGTH_MAX || /\p{Cc}/u.test(file.fileName)) problems.push(`the file name must be 1-${TEXT_LENGTH_MAX} printable characters`);
  if (!DOCUMENT_CONTENT_TYPES.includes(file.contentType)) problems.push('the file must be a PDF, JPEG or PNG');
  if (!Number.isSafeInteger(file.sizeBytes) || file.sizeBytes < 1) problems.push('the file is empty');
  if (file.sizeBytes > DOCUMENT_FILE_SIZE_MAX_BYTES) problems.push('the file is larger than 10 MB');
  if (!/^[0-9a-f]{64}$/.test(file.sha256)) problems.push('the file digest must be a SHA-256 in hex');
  return problems.map((message) => ({ field: 'file', message }));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function sameFields(a: object, b: object): boolean {
  const left = definedOnly(a) as Record<string, unknown>;
  const right = definedOnly(b) as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].every((key) => left[key] === right[key]);
}

const notFound = () => new DomainError('REFERENCE_NOT_FOUND', 'document not found');
const invalid = (errors: FieldError[]) => new DomainError('INVALID_INPUT', `invalid document: ${[...new Set(errors.map((e) => e.field))].join(', ')}`, { errors });
