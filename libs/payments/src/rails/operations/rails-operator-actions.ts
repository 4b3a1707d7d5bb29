import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { ApiError, CallerContext, FileAnswer, ImportRailFileBody, OperatorActionInput, operatorActionStream, OperatorPrincipal, RailExceptionView, RailImportResult } from '@payments/contracts';
import { appendNewStreams, EventStore, queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { RailFileRow } from '../rail-file-row';
import type { Rails } from '../rails';
import { RailExceptionRow, railExceptionView, RailsQueries } from './rails-queries';

const operatorOf = (caller: CallerContext): OperatorPrincipal => {
  if (!caller.operator) throw new ApiError('NOT_FOUND', 'no such resource or route');
  return caller.operator;
};

const contentUnavailable = (why: string) => new ApiError('FILE_CONTENT_UNAVAILABLE', `the bytes of this file cannot be read: ${why}`);

/** NACHA files are fixed-width text; pain.001, pain.002 and camt.054 are XML. */
function contentTypeOf(file: RailFileRow): string {
  if (/^NACHA/.test(file.format) || /\.(ach|txt)$/i.test(file.name)) return 'text/plain';
  if (/^(PAIN|CAMT|PACS)/.test(file.format) || /\.xml$/i.test(file.name)) return 'application/xml';
  return 'application/octet-stream';
}

/**
 * What operators do to the rails (docs/rails.md): open a file, import a return or status file, resolve an exception.
 * Each is recorded in the audit log (`OperatorActionRecorded.v1` on the payments topic). Resolving commits with its
 * record; an import is the connector's own transaction, so its record follows it (see `importFile`).
 */
export class RailsOperatorActions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly schema: string,
    private readonly rails: Pick<Rails, 'connectors' | 'importFile' | 'credits'>,
    private readonly queries: RailsQueries,
  ) {}

  /** The file's bytes through its connector; who opened which file is recorded before the bytes leave. */
  async fileContent(caller: CallerContext, fileId: string): Promise<FileAnswer> {
    const operator = operatorOf(caller);
    const file = await this.queries.fileRow(this.dataSource, fileId);
    const connector = this.rails.connectors.get(file.connector_id);
    if (!connector) throw contentUnavailable(`connector ${file.connector_id} is no longer configured`);
    if (!connector.readFile) throw contentUnavailable(`connector ${file.connector_id} keeps no files`);
    if (file.status === 'WRITING') throw contentUnavailable('it is still being written');
    const content = await connector.readFile(file);
    if (!content) throw contentUnavailable(`it is no longer in the ${file.direction === 'OUTBOUND' ? 'outbox' : 'inbox'} of connector ${file.connector_id}`);
    await this.auditAlone(caller, {
      operator,
      action: 'rails.download-file',
      target: { type: 'RailFile', id: fileId },
      details: { connectorId: file.connector_id, direction: file.direction, name: file.name, sha256: file.sha256 },
    });
    return { fileName: file.name, contentType: contentTypeOf(file), base64: content.toString('base64') };
  }

  /**
   * Imports through Rails.importFile (the connector imports once by SHA-256 and applies each outcome once). The audit
   * record is written when the import has answered, in its own transaction: the import's effects are the connector's
   * transaction, and a lost record (a crash between the two) leaves the file's row, which names who imported it.
   * A refused file records nothing.
   */
  async importFile(caller: CallerContext, body: ImportRailFileBody): Promise<RailImportResult> {
    const operator = operatorOf(caller);
    const content = Buffer.from(body.base64, 'base64');
    if (content.length === 0) throw new ApiError('INVALID_INPUT', 'file: the file is empty', { errors: [{ field: 'file', message: 'empty' }] });
    const result = await this.rails.importFile({ ...(body.connectorId ? { connectorId: body.connectorId } : {}), name: body.fileName, content, importedBy: operator.operatorId });
    await this.auditAlone(caller, {
      operator,
      action: 'rails.import',
      target: { type: 'RailFile', id: result.fileId },
      details: { connectorId: result.connectorId, format: result.format, name: result.name, sha256: result.sha256, duplicate: result.duplicate, entries: result.entries, outcomes: result.outcomes, exceptions: result.exceptions },
    });
    return result;
  }

  /** OPEN → RESOLVED with who, when and what was done, and its audit record: one transaction. */
  async resolveException(caller: CallerContext, exceptionId: string, resolution: string, now: string): Promise<RailExceptionView> {
    const operator = operatorOf(caller);
    const table = `${this.schema}.rail_exceptions`;
    return this.dataSource.transaction(async (tx) => {
      const [resolved] = await queryRows<RailExceptionRow>(
        tx,
        // As a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count], a SELECT with the rows.
        `WITH resolved AS (UPDATE ${table} SET status = 'RESOLVED', resolution = $2, resolved_by = $3, resolved_at = $4 WHERE exception_id = $1 AND status = 'OPEN' RETURNING *)
         SELECT * FROM resolved`,
        [exceptionId, resolution, operator.operatorId, now],
      );
      if (!resolved) {
        const [existing] = await queryRows<{ status: string }>(tx, `SELECT status FROM ${table} WHERE exception_id = $1`, [exceptionId]);
        if (!existing) throw new ApiError('REFERENCE_NOT_FOUND', 'no rail exception with this id');
        throw new ApiError('RAIL_EXCEPTION_ALREADY_RESOLVED', 'this exception is resolved already');
      }
      const platformId = resolved.payment_id
        ? (await queryRows<{ platform_id: string }>(tx, `SELECT platform_id FROM ${this.schema}.rail_payments WHERE payment_id = $1`, [resolved.payment_id]))[0]?.platform_id
        : undefined;
      await this.audit(tx, caller, {
        operator,
        action: 'rails.exception.resolve',
        target: { type: 'RailException', id: exceptionId },
        ...(platformId ? { platformId } : {}),
        reason: resolution,
        details: { connectorId: resolved.connector_id, kind: resolved.kind, ...(resolved.file_id ? { fileId: resolved.file_id } : {}), ...(resolved.payment_id ? { paymentId: resolved.payment_id } : {}) },
        occurredAt: now,
      });
      return railExceptionView(resolved);
    });
  }

  /**
   * An unmatched credit credited to the account an operator names: the exception RESOLVED (ASSIGNED, with the
   * transaction), the INCOMING transaction (IncomingCredits: once per bank entry) and the audit record in one
   * database transaction. The row is locked first, so two assignments at once credit once and the second is a 409.
   */
  async assignCredit(caller: CallerContext, exceptionId: string, internalAccountId: string, reason: string, now: string): Promise<RailExceptionView> {
    const operator = operatorOf(caller);
    const peek = await this.openCredit(this.dataSource, exceptionId);
    const credit = creditOf(peek);
    // Asked before the transaction: an RPC to accounts is not held inside a lock.
    const account = await this.rails.credits.account(internalAccountId, credit.currency);
    if (!account) {
      throw new ApiError('INVALID_INPUT', `internalAccountId: ${internalAccountId} is no production customer or platform internal account in ${credit.currency}`, { errors: [{ field: 'internalAccountId', message: `must be a production internal account in ${credit.currency}` }] });
    }
    return this.dataSource.transaction(async (tx) => {
      const row = await this.openCredit(tx, exceptionId, true);
      const { transactionId } = await this.rails.credits.credit(tx, { ...creditOf(row), connectorId: row.connector_id, fileId: row.file_id, exceptionId }, account, now);
      const [resolved] = await queryRows<RailExceptionRow>(
        tx,
        `WITH resolved AS (UPDATE ${this.schema}.rail_exceptions SET status = 'RESOLVED', disposition = 'ASSIGNED', transaction_id = $2, resolution = $3, resolved_by = $4, resolved_at = $5 WHERE exception_id = $1 RETURNING *) SELECT * FROM resolved`,
        [exceptionId, transactionId, reason, operator.operatorId, now],
      );
      await this.audit(tx, caller, {
        operator,
        action: 'rails.exception.assign',
        target: { type: 'RailException', id: exceptionId },
        platformId: account.platformId,
        reason,
        details: { connectorId: row.connector_id, internalAccountId: account.accountId, transactionId, amount: credit.amount, currency: credit.currency, ...(row.file_id ? { fileId: row.file_id } : {}) },
        occurredAt: now,
      });
      return railExceptionView(resolved);
    });
  }

  /** An unmatched credit to go back to its sender: RESOLVED (TO_BE_RETURNED) with the reason and its audit record. Nothing moves. */
  async returnCredit(caller: CallerContext, exceptionId: string, reason: string, now: string): Promise<RailExceptionView> {
    const operator = operatorOf(caller);
    return this.dataSource.transaction(async (tx) => {
      const row = await this.openCredit(tx, exceptionId, true);
      const credit = creditOf(row);
      const [resolved] = await queryRows<RailExceptionRow>(
        tx,
        `WITH resolved AS (UPDATE ${this.schema}.rail_exceptions SET status = 'RESOLVED', disposition = 'TO_BE_RETURNED', resolution = $2, resolved_by = $3, resolved_at = $4 WHERE exception_id = $1 RETURNING *) SELECT * FROM resolved`,
        [exceptionId, reason, operator.operatorId, now],
      );
      await this.audit(tx, caller, {
        operator,
        action: 'rails.exception.return',
        target: { type: 'RailException', id: exceptionId },
        reason,
        details: { connectorId: row.connector_id, amount: credit.amount, currency: credit.currency, bankReference: credit.bankReference, ...(row.file_id ? { fileId: row.file_id } : {}) },
        occurredAt: now,
      });
      return railExceptionView(resolved);
    });
  }

  /** The exception, if it is an open UNMATCHED_CREDIT (`lock`: FOR UPDATE in the caller's transaction); else 404, 409 or 400. */
  private async openCredit(db: SqlExecutor, exceptionId: string, lock = false): Promise<RailExceptionRow> {
    const [row] = await queryRows<RailExceptionRow>(db, `SELECT * FROM ${this.schema}.rail_exceptions WHERE exception_id = $1${lock ? ' FOR UPDATE' : ''}`, [exceptionId]);
    if (!row) throw new ApiError('REFERENCE_NOT_FOUND', 'no rail exception with this id');
    if (row.status !== 'OPEN') throw new ApiError('RAIL_EXCEPTION_ALREADY_RESOLVED', 'this exception is resolved already');
    if (row.kind !== 'UNMATCHED_CREDIT') throw new ApiError('INVALID_INPUT', `exceptionId: a ${row.kind} exception is no incoming credit: resolve it instead`, { errors: [{ field: 'exceptionId', message: 'not an UNMATCHED_CREDIT' }] });
    return row;
  }

  private auditAlone(caller: CallerContext, input: Omit<OperatorActionInput, 'actionId' | 'occurredAt'>): Promise<void> {
    return this.dataSource.transaction((tx) => this.audit(tx, caller, input));
  }

  private audit(db: SqlExecutor, caller: CallerContext, input: Omit<OperatorActionInput, 'actionId' | 'occurredAt'> & { occurredAt?: string }): Promise<void> {
    const record = operatorActionStream({ actionId: uuidv7(), occurredAt: new Date().toISOString(), ...input });
    return appendNewStreams(db, this.store, [record], { platformId: input.platformId ?? null, metadata: { correlationId: caller.correlationId, actor: input.operator.operatorId } });
  }
}

/** The credit an UNMATCHED_CREDIT exception recorded (file-rail-connector's importCredit). */
function creditOf(row: RailExceptionRow): { bankReference: string; amount: number; currency: string; paymentRail: string | null; debtorName?: string } {
  const d = row.detail;
  if (typeof d.amount !== 'number' || typeof d.currency !== 'string' || typeof d.bankReference !== 'string') {
    throw new ApiError('INVALID_INPUT', 'exceptionId: this credit was recorded without its amount and bank reference (before assignment existed): credit it by a ledger adjustment and resolve it', { errors: [{ field: 'exceptionId', message: 'not assignable' }] });
  }
  return { bankReference: d.bankReference, amount: d.amount, currency: d.currency, paymentRail: null, ...(typeof d.debtorName === 'string' ? { debtorName: d.debtorName } : {}) };
}
