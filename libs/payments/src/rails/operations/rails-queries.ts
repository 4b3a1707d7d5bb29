import {
  ApiError,
  ListRailExceptionsQuery,
  ListRailFilesQuery,
  Page,
  RailConnectorView,
  RailExceptionView,
  RailFileDetail,
  RailFileView,
  RailOutcomeView,
  RailPaymentDetail,
  RailPaymentView,
} from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { keysetPage, SqlWhere } from '@payments/runtime';
import type { RailFileRow } from '../rail-file-row';
import type { RailPaymentRow } from '../rail-payments';
import type { Rails } from '../rails';

export interface RailOutcomeRow {
  outcome_id: string;
  payment_id: string;
  kind: RailOutcomeView['kind'];
  failure_reason: string | null;
  rail_code: string | null;
  source: string;
  recorded_at: Date;
  applied_at: Date | null;
}

export interface RailExceptionRow {
  exception_id: string;
  connector_id: string;
  file_id: string | null;
  payment_id: string | null;
  kind: RailExceptionView['kind'];
  message: string;
  detail: Record<string, unknown>;
  status: RailExceptionView['status'];
  disposition: RailExceptionView['disposition'] | null;
  transaction_id: string | null;
  resolution: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  created_at: Date;
}

/**
 * A list key that sorts as the list does: the creation time, fixed width to the microsecond, then the id (ids are
 * not all time-ordered: an exception's id is derived from what it is about). Text, so keysetPage's cursor carries it.
 */
/** A file's columns but its bytes (`content`: an imported file as received, read only for its download). */
const FILE_COLUMNS = 'file_id, connector_id, direction, format, name, status, sha256, size_bytes, entry_count, total_amount, meta, imported_by, created_at, written_at';

const listKey = (table: string, idColumn: string) => `(to_char(${table}.created_at AT TIME ZONE 'UTC', 'YYYYMMDDHH24MISSUS') || ${table}.${idColumn})`;

export const railFileNotFound = () => new ApiError('REFERENCE_NOT_FOUND', 'no rail file with this id');
const paymentNotFound = () => new ApiError('REFERENCE_NOT_FOUND', 'no payment with this id was handed to a rail');

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);
const num = (v: string | number | null) => (v === null ? undefined : Number(v));
/** Leaves out the fields a row does not have, so an absent value is absent in the answer rather than null. */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

export function railFileView(row: RailFileRow): RailFileView {
  return defined({
    id: row.file_id,
    connectorId: row.connector_id,
    direction: row.direction,
    format: row.format,
    name: row.name,
    status: row.status,
    sha256: row.sha256 ?? undefined,
    sizeBytes: num(row.size_bytes),
    entryCount: row.entry_count,
    totalAmount: Number(row.total_amount),
    meta: row.meta ?? {},
    importedBy: row.imported_by ?? undefined,
    createdAt: iso(row.created_at)!,
    writtenAt: iso(row.written_at),
  });
}

export function railPaymentView(row: RailPaymentRow): RailPaymentView {
  return defined({
    paymentId: row.payment_id,
    connectorId: row.connector_id,
    platformId: row.platform_id,
    kind: row.kind,
    paymentRail: row.payment_rail,
    railReference: row.rail_reference,
    amount: Number(row.amount),
    currency: row.currency,
    externalAccountId: row.external_account_id,
    status: row.status,
    fileId: row.file_id ?? undefined,
    providerReference: row.provider_reference ?? undefined,
    settlesAt: iso(row.settles_at),
    submittedAt: iso(row.submitted_at)!,
    updatedAt: iso(row.updated_at)!,
  });
}

export function railOutcomeView(row: RailOutcomeRow): RailOutcomeView {
  return defined({
    paymentId: row.payment_id,
    kind: row.kind,
    failureReason: row.failure_reason ?? undefined,
    railCode: row.rail_code ?? undefined,
    source: row.source,
    recordedAt: iso(row.recorded_at)!,
    appliedAt: iso(row.applied_at),
  });
}

export function railExceptionView(row: RailExceptionRow): RailExceptionView {
  return defined({
    id: row.exception_id,
    connectorId: row.connector_id,
    fileId: row.file_id ?? undefined,
    paymentId: row.payment_id ?? undefined,
    kind: row.kind,
    message: row.message,
    detail: row.detail ?? {},
    status: row.status,
    disposition: row.disposition ?? undefined,
    transactionId: row.transaction_id ?? undefined,
    resolution: row.resolution ?? undefined,
    resolvedBy: row.resolved_by ?? undefined,
    resolvedAt: iso(row.resolved_at),
    createdAt: iso(row.created_at)!,
  });
}

/** Reads of the rails' tables for the operator API (docs/rails.md): nothing here changes anything. */
export class RailsQueries {
  constructor(
    private readonly db: SqlExecutor,
    private readonly schema: string,
  ) {}

  private table(name: 'rail_payments' | 'rail_files' | 'rail_outcomes' | 'rail_exceptions'): string {
    return `${this.schema}.${name}`;
  }

  /** The configured connectors with their counts: three grouped reads, whatever the number of connectors. */
  async connectors(rails: Pick<Rails, 'describe'>): Promise<RailConnectorView[]> {
    const [payments, exceptions, files] = await Promise.all([
      queryRows<{ connector_id: string; submitted: number; awaiting: number }>(
        this.db,
        `SELECT connector_id, count(*) FILTER (WHERE status = 'SUBMITTED')::int AS submitted, count(*) FILTER (WHERE status IN ('FILED', 'SENT'))::int AS awaiting
           FROM ${this.table('rail_payments')} WHERE status IN ('SUBMITTED', 'FILED', 'SENT') GROUP BY connector_id`,
      ),
      queryRows<{ connector_id: string; n: number }>(this.db, `SELECT connector_id, count(*)::int AS n FROM ${this.table('rail_exceptions')} WHERE status = 'OPEN' GROUP BY connector_id`),
      queryRows<{ connector_id: string; at: Date | null }>(this.db, `SELECT connector_id, max(written_at) AS at FROM ${this.table('rail_files')} WHERE direction = 'OUTBOUND' GROUP BY connector_id`),
    ]);
    return rails.describe().map((c) => {
      const p = payments.find((r) => r.connector_id === c.id);
      const lastOutboundFileAt = iso(files.find((r) => r.connector_id === c.id)?.at);
      return {
        ...c,
        paymentsSubmitted: p?.submitted ?? 0,
        paymentsAwaitingRail: p?.awaiting ?? 0,
        exceptionsOpen: exceptions.find((r) => r.connector_id === c.id)?.n ?? 0,
        ...(lastOutboundFileAt ? { lastOutboundFileAt } : {}),
      };
    });
  }

  listFiles(query: ListRailFilesQuery): Promise<Page<RailFileView>> {
    const where = new SqlWhere().add('connector_id = ?', query.connectorId).add('direction = ?', query.direction).add('status = ?', query.status);
    const key = listKey(this.table('rail_files'), 'file_id');
    return keysetPage<RailFileRow & { list_key: string }, RailFileView>({
      db: this.db,
      from: `FROM ${this.table('rail_files')} WHERE ${where.sql}`,
      params: where.params,
      select: `${FILE_COLUMNS}, ${key} AS list_key`,
      keyColumn: key,
      order: 'desc',
      limit: query.limit,
      cursor: query.cursor,
      toItem: railFileView,
      keyOf: (row) => row.list_key,
    });
  }

  async fileRow(db: SqlExecutor, fileId: string): Promise<RailFileRow> {
    const [row] = await queryRows<RailFileRow>(db, `SELECT ${FILE_COLUMNS} FROM ${this.table('rail_files')} WHERE file_id = $1`, [fileId]);
    if (!row) throw railFileNotFound();
    return row;
  }

  async file(fileId: string): Promise<RailFileDetail> {
    const row = await this.fileRow(this.db, fileId);
    const view = railFileView(row);
    if (row.direction === 'OUTBOUND') {
      const payments = await queryRows<RailPaymentRow>(this.db, `SELECT * FROM ${this.table('rail_payments')} WHERE file_id = $1 ORDER BY sequence`, [fileId]);
      return { ...view, payments: payments.map(railPaymentView) };
    }
    const [outcomes, exceptions] = await Promise.all([
      queryRows<RailOutcomeRow>(this.db, `SELECT * FROM ${this.table('rail_outcomes')} WHERE source = $1 ORDER BY recorded_at, outcome_id`, [fileId]),
      queryRows<RailExceptionRow>(this.db, `SELECT * FROM ${this.table('rail_exceptions')} WHERE file_id = $1 ORDER BY created_at, exception_id`, [fileId]),
    ]);
    return { ...view, outcomes: outcomes.map(railOutcomeView), exceptions: exceptions.map(railExceptionView) };
  }

  async payment(paymentId: string): Promise<RailPaymentDetail> {
    const [row] = await queryRows<RailPaymentRow>(this.db, `SELECT * FROM ${this.table('rail_payments')} WHERE payment_id = $1`, [paymentId]);
    if (!row) throw paymentNotFound();
    const [outcomes, files] = await Promise.all([
      queryRows<RailOutcomeRow>(this.db, `SELECT * FROM ${this.table('rail_outcomes')} WHERE payment_id = $1 ORDER BY recorded_at, outcome_id`, [paymentId]),
      row.file_id ? queryRows<RailFileRow>(this.db, `SELECT ${FILE_COLUMNS} FROM ${this.table('rail_files')} WHERE file_id = $1`, [row.file_id]) : Promise.resolve([]),
    ]);
    return { ...railPaymentView(row), outcomes: outcomes.map(railOutcomeView), ...(files[0] ? { file: railFileView(files[0]) } : {}) };
  }

  listExceptions(query: ListRailExceptionsQuery): Promise<Page<RailExceptionView>> {
    const where = new SqlWhere().add('status = ?', query.status).add('connector_id = ?', query.connectorId).add('kind = ?', query.kind);
    const key = listKey(this.table('rail_exceptions'), 'exception_id');
    return keysetPage<RailExceptionRow & { list_key: string }, RailExceptionView>({
      db: this.db,
      from: `FROM ${this.table('rail_exceptions')} WHERE ${where.sql}`,
      params: where.params,
      select: `*, ${key} AS list_key`,
      keyColumn: key,
      order: 'asc', // a queue: the oldest first
      limit: query.limit,
      cursor: query.cursor,
      toItem: railExceptionView,
      keyOf: (row) => row.list_key,
    });
  }
}
