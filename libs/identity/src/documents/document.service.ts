import type { DataSource, EntityManager } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  Document,
  DOCUMENT_FILE_SIZE_MAX_BYTES,
  DocumentContentType,
  DocumentFilePayload,
  DocumentSide,
  DocumentType,
  isDocumentId,
  ListDocumentsQuery,
  Mode,
  Page,
  ReplaceDocumentBody,
  UploadDocumentBody,
} from '@payments/contracts';
import { ClaimInTransaction, CommandExecutor, CommandRequest, IdempotencyClaims, retryOnConflict } from '@payments/eventsourcing';
import { idempotencyScopeOf, keysetPage } from '@payments/runtime';
import { detectContentType, sha256Hex } from './document-content';
import { IdentityChanges, NO_IDENTITY_CHANGES } from '../kyc-reviews/identity-changes';
import { lockBusinessOwners } from '../beneficial-owners/beneficial-owner.service';
import { customerOfHolder, holderExists } from './document-holders';
import { DocumentStorage } from './document-storage';
import { DocumentCommand, documentDecider, DocumentState } from './document.decider';
import { DocumentEvent, DocumentFile, DocumentMetadata } from './document.events';
import { projectDocument } from './document.projection';

interface DocumentRow {
  document_id: string;
  document_holder: string;
  document_type: DocumentType;
  side: DocumentSide | null;
  country: string;
  document_number: string | null;
  issuing_authority: string | null;
  file_name: string;
  content_type: DocumentContentType;
  size_bytes: number;
  sha256: string;
  file_key: string;
  submitted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** What the verification needs to know about one of a holder's documents. */
export interface HolderDocument {
  documentId: string;
  documentType: DocumentType;
  side?: DocumentSide;
  submitted: boolean;
}

/** A received file, checked: its real type, size and digest. */
interface ReceivedFile {
  bytes: Buffer;
  fileName: string;
  contentType: DocumentContentType;
  sha256: string;
}

const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'document not found');
/** A customer holder has the published 404 code USER_NOT_FOUND; a beneficial owner has none there (docs/kyc.md). */
const holderNotFound = (holder: string) => (holder.startsWith('Customer:') ? new ApiError('USER_NOT_FOUND', 'customer not found') : new ApiError('REFERENCE_NOT_FOUND', 'document holder not found'));

/**
 * Documents (KYC/KYB evidence) of customers and beneficial owners. Each write appends to the document's stream
 * and writes or removes its bytes in DocumentStorage in the same transaction, so an upload either fully happens
 * or leaves nothing behind.
 */
export class DocumentService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly storage: DocumentStorage,
    private readonly claims: IdempotencyClaims,
    private readonly identityChanges: IdentityChanges = NO_IDENTITY_CHANGES,
    private readonly versionConflictRetriesMax = 5,
  ) {}

  /** One document per Idempotency-Key: a retry (also after a crash) answers it as it is now. */
  upload(caller: CallerContext, body: UploadDocumentBody, now: string): Promise<Document> {
    const documentId = `Document:${uuidv7()}`;
    return this.claims.run(idempotencyScopeOf(caller), 'document-upload', documentId, (claim) => this.uploadNew(caller, body, now, documentId, claim), (id) => this.get(caller, id));
  }

  private async uploadNew(caller: CallerContext, body: UploadDocumentBody, now: string, documentId: string, claim: ClaimInTransaction): Promise<Document> {
    const file = receiveFile(body.file);
    const documentHolder = String(body.documentHolder);
    await this.dataSource.transaction(async (tx) => {
      // Checked inside the transaction that appends: a holder missing now is a 404 with nothing written.
      if (!(await holderExists(tx, caller.platformId, caller.mode, documentHolder))) throw holderNotFound(documentHolder);
      await assertIdentityOpen(tx, caller, documentHolder);
      const fileFields = fileFieldsOf(documentId, file);
      const command: DocumentCommand = { type: 'UploadDocument', documentId, platformId: caller.platformId, mode: caller.mode, documentHolder, metadata: metadataOf(body), file: fileFields, now };
      await this.executor.decideAndAppend(tx, this.request(caller, documentId, command));
      await claim(tx);
      await this.storage.put(tx, fileFields.fileKey, file.bytes, file.sha256);
    });
    await this.changed(caller, documentHolder, now);
    return this.get(caller, documentId);
  }

  /** Replaces the file and/or metadata; the id and the holder stay. A replacement equal to what is stored appends nothing. */
  async replace(caller: CallerContext, body: ReplaceDocumentBody, now: string): Promise<Document> {
    const documentId = String(body.documentId);
    if (!isDocumentId(documentId)) throw notFound();
    const file = body.file === undefined ? undefined : receiveFile(body.file);
    const fileFields = file && fileFieldsOf(documentId, file);
    const command: DocumentCommand = { type: 'ReplaceDocument', platformId: caller.platformId, mode: caller.mode, changes: metadataOf(body), file: fileFields, now };
    const holder = (await this.findRow(caller, documentId))?.document_holder;
    await retryOnConflict(
      () =>
        this.dataSource.transaction(async (tx) => {
          if (holder) await assertIdentityOpen(tx, caller, holder);
          const result = await this.executor.decideAndAppend(tx, this.request(caller, documentId, command));
          const replaced = result.events.find((e) => e.type === 'DocumentReplaced.v1');
          if (!replaced || !file || !fileFields) return;
          await this.storage.put(tx, fileFields.fileKey, file.bytes, file.sha256);
          if (replaced.data.previousFileKey !== fileFields.fileKey) await this.storage.delete(tx, replaced.data.previousFileKey);
        }),
      this.versionConflictRetriesMax,
    );
    if (holder) await this.changed(caller, holder, now);
    return this.get(caller, documentId);
  }

  /** The bytes go with the event: a deleted document leaves no file behind. Submitted documents are refused (409). */
  async delete(caller: CallerContext, documentId: string, now: string): Promise<void> {
    if (!isDocumentId(documentId)) throw notFound();
    const command: DocumentCommand = { type: 'DeleteDocument', platformId: caller.platformId, mode: caller.mode, now };
    const holder = (await this.findRow(caller, documentId))?.document_holder;
    await retryOnConflict(
      () =>
        this.dataSource.transaction(async (tx) => {
          if (holder) await assertIdentityOpen(tx, caller, holder);
          const result = await this.executor.decideAndAppend(tx, this.request(caller, documentId, command));
          for (const event of result.events) if (event.type === 'DocumentDeleted.v1') await this.storage.delete(tx, event.data.fileKey);
        }),
      this.versionConflictRetriesMax,
    );
    if (holder) await this.changed(caller, holder, now);
  }

  /** A production holder's documents are part of the identity under review: a waiting review rechecks it. */
  private async changed(caller: CallerContext, holder: string, now: string): Promise<void> {
    if (caller.mode !== 'PRODUCTION') return;
    const customer = await customerOfHolder(this.dataSource, holder);
    if (customer) await this.identityChanges.changed(customer.customerId, caller.correlationId, now);
  }

  async get(caller: CallerContext, documentId: string): Promise<Document> {
    const row = await this.findRow(caller, documentId);
    if (!row) throw notFound();
    return toDocument(row);
  }

  list(caller: CallerContext, query: ListDocumentsQuery): Promise<Page<Document>> {
    const params: unknown[] = [caller.platformId, caller.mode];
    let holderFilter = '';
    if (query.documentHolder !== undefined) {
      params.push(query.documentHolder);
      holderFilter = ` AND document_holder = $${params.length}`;
    }
    return keysetPage<DocumentRow, Document>({
      db: this.dataSource,
      from: `FROM documents WHERE platform_id = $1 AND mode = $2 AND deleted_at IS NULL${holderFilter}`,
      params,
      keyColumn: 'document_id',
      limit: query.limit,
      cursor: query.cursor,
      toItem: toDocument,
      keyOf: (row) => row.document_id,
    });
  }

  /** The stored file, for the review queue's download (the operator API); the platform API has none. */
  async getContent(scope: Pick<CallerContext, 'platformId' | 'mode'>, documentId: string): Promise<{ fileName: string; contentType: DocumentContentType; bytes: Buffer }> {
    const row = await this.findRow(scope, documentId);
    const bytes = row && (await this.storage.get(row.file_key));
    if (!row || !bytes) throw notFound();
    return { fileName: row.file_name, contentType: row.content_type, bytes };
  }

  /** The documents of these ids as the API shows them, in id order (the review queue's: submitted ones are never deleted). */
  async byIds(documentIds: readonly string[]): Promise<Document[]> {
    if (documentIds.length === 0) return [];
    const rows: DocumentRow[] = await this.dataSource.query(`SELECT * FROM documents WHERE document_id = ANY($1) ORDER BY document_id COLLATE "C"`, [[...documentIds]]);
    return rows.map(toDocument);
  }

  /** For the verification: each requested holder's live documents (an empty list for a holder without any). */
  async listForHolders(tx: EntityManager, platformId: string, mode: Mode, holderIds: readonly string[]): Promise<Record<string, HolderDocument[]>> {
    const byHolder: Record<string, HolderDocument[]> = Object.fromEntries(holderIds.map((id) => [id, []]));
    const rows: DocumentRow[] = await tx.query(
      `SELECT * FROM documents WHERE platform_id = $1 AND mode = $2 AND document_holder = ANY($3) AND deleted_at IS NULL ORDER BY document_id COLLATE "C"`,
      [platformId, mode, [...holderIds]],
    );
    for (const row of rows) {
      byHolder[row.document_holder].push({ documentId: row.document_id, documentType: row.document_type, ...(row.side ? { side: row.side } : {}), submitted: row.submitted_at !== null });
    }
    return byHolder;
  }

  /**
   * For the verification, inside its transaction: appends DocumentSubmitted.v1 to each document not yet submitted
   * (idempotent). Ids are taken in a fixed order so two submissions sharing documents cannot deadlock.
   */
  async markSubmitted(tx: EntityManager, documentIds: readonly string[], now: string = new Date().toISOString()): Promise<void> {
    const ids = [...new Set(documentIds)].sort();
    if (ids.some((id) => !isDocumentId(id))) throw notFound();
    // The events carry the owning platform like every other event (tenancy on the bus): read it from the view.
    const owners: { document_id: string; platform_id: string }[] = await tx.query(`SELECT document_id, platform_id FROM documents WHERE document_id = ANY($1)`, [ids]);
    for (const documentId of ids) {
      const platformId = owners.find((o) => o.document_id === documentId)?.platform_id;
      if (!platformId) throw notFound();
      await this.executor.decideAndAppend(tx, { decider: documentDecider, streamId: documentId, platformId, command: { type: 'MarkDocumentSubmitted', now }, project: projectDocument });
    }
  }

  private request(caller: CallerContext, documentId: string, command: DocumentCommand): CommandRequest<EntityManager, DocumentState, DocumentCommand, DocumentEvent> {
    return {
      decider: documentDecider,
      streamId: documentId,
      platformId: caller.platformId,
      metadata: { correlationId: caller.correlationId, actor: caller.clientId },
      command,
      project: projectDocument,
    };
  }

  private async findRow(caller: Pick<CallerContext, 'platformId' | 'mode'>, documentId: string): Promise<DocumentRow | undefined> {
    if (!isDocumentId(documentId)) return undefined;
    const rows: DocumentRow[] = await this.dataSource.query(
      `SELECT * FROM documents WHERE document_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`,
      [documentId, caller.platformId, caller.mode],
    );
    return rows[0];
  }
}

/** Decodes the base64 of the RPC and checks what the bytes are: over 10 MB is 413, anything but PDF/JPEG/PNG 400. */
/**
 * The documents of a production customer whose KYC/KYB is APPROVED (its own and its owners') are those approved:
 * none is added, replaced or deleted after (docs/kyc.md#after-approval).
 */
async function assertIdentityOpen(tx: EntityManager, caller: CallerContext, holder: string): Promise<void> {
  if (caller.mode !== 'PRODUCTION') return;
  const customer = await customerOfHolder(tx, holder);
  if (!customer) return;
  // Under the lock an approval holds while it reads the identity and decides: the status read is the decided one.
  await lockBusinessOwners(tx, customer.customerId);
  if ((await customerOfHolder(tx, holder))?.status !== 'APPROVED') return;
  throw new ApiError('KYC_IDENTITY_LOCKED', "the customer's identity was approved with these documents: none can be added, replaced or deleted after approval", { fields: ['documents'] });
}

function receiveFile(payload: DocumentFilePayload | undefined): ReceivedFile {
  if (!payload || typeof payload.base64 !== 'string' || typeof payload.fileName !== 'string') {
    throw new ApiError('INVALID_INPUT', 'a file is required', { errors: [{ field: 'file', message: 'file is required' }] });
  }
  const bytes = Buffer.from(payload.base64, 'base64');
  if (bytes.length > DOCUMENT_FILE_SIZE_MAX_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', 'the file is larger than 10 MB');
  if (bytes.length === 0) throw new ApiError('INVALID_INPUT', 'the file is empty', { errors: [{ field: 'file', message: 'file must not be empty' }] });
  const contentType = detectContentType(bytes);
  if (!contentType) {
    const message = 'file must be a PDF, JPEG or PNG; its content is none of these, whatever its name says';
    throw new ApiError('INVALID_INPUT', 'the file is not a PDF, JPEG or PNG', { errors: [{ field: 'file', message }] });
  }
  return { bytes, fileName: payload.fileName, contentType, sha256: sha256Hex(bytes) };
}

/** One storage key per content: replacing with different bytes writes a new key and drops the old one. */
function fileFieldsOf(documentId: string, file: ReceivedFile): DocumentFile {
  return { fileName: file.fileName, contentType: file.contentType, sizeBytes: file.bytes.length, sha256: file.sha256, fileKey: `${documentId}/${file.sha256}` };
}

function metadataOf(body: Partial<DocumentMetadata>): DocumentMetadata {
  const { documentType, side, country, documentNumber, issuingAuthority } = body;
  return { documentType, side, country, documentNumber, issuingAuthority } as DocumentMetadata;
}

function toDocument(row: DocumentRow): Document {
  return {
    id: row.document_id,
    documentHolder: row.document_holder,
    documentType: row.document_type,
    ...(row.side ? { side: row.side } : {}),
    country: row.country,
    ...(row.document_number ? { documentNumber: row.document_number } : {}),
    ...(row.issuing_authority ? { issuingAuthority: row.issuing_authority } : {}),
    fileName: row.file_name,
    contentType: row.content_type,
    sizeBytes: Number(row.size_bytes),
    sha256: row.sha256,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
