import type { OperatorRateEntry, Page } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import { keysetPage } from '@payments/runtime';
import type { OperatorTableEntry } from './production-rate-book';

interface EntryRow {
  seq: string;
  entry_id: string;
  source_currency: string;
  destination_currency: string;
  kind: 'SET' | 'WITHDRAWN';
  mid_rate: string | null;
  valid_from: Date;
  valid_until: Date | null;
  reason: string | null;
  operator_id: string;
  operator_name: string;
  recorded_at: Date;
}

const COLUMNS = 'seq, entry_id, source_currency, destination_currency, kind, mid_rate, valid_from, valid_until, reason, operator_id, operator_name, recorded_at';

const toEntry = (row: EntryRow): OperatorTableEntry => ({
  entryId: row.entry_id,
  seq: Number(row.seq),
  sourceCurrency: row.source_currency,
  destinationCurrency: row.destination_currency,
  kind: row.kind,
  midRate: row.mid_rate,
  validFrom: row.valid_from.toISOString(),
  validUntil: row.valid_until?.toISOString() ?? null,
  reason: row.reason,
  operatorId: row.operator_id,
  operatorName: row.operator_name,
  recordedAt: row.recorded_at.toISOString(),
});

/** An entry as the operator API shows it. */
export function entryView(entry: OperatorTableEntry): OperatorRateEntry {
  return {
    id: entry.entryId,
    sourceCurrency: entry.sourceCurrency,
    destinationCurrency: entry.destinationCurrency,
    kind: entry.kind,
    ...(entry.midRate !== null ? { midRate: entry.midRate } : {}),
    validFrom: entry.validFrom,
    ...(entry.validUntil !== null ? { validUntil: entry.validUntil } : {}),
    ...(entry.reason !== null ? { reason: entry.reason } : {}),
    operator: { id: entry.operatorId, name: entry.operatorName },
    recordedAt: entry.recordedAt,
  };
}

/** The operator rate table in the database: appended to, never changed (a trigger refuses UPDATE and DELETE). */
export const operatorRateTable = {
  async append(tx: SqlExecutor, entry: Omit<OperatorTableEntry, 'seq'>): Promise<OperatorTableEntry> {
    const [row] = await queryRows<EntryRow>(
      tx,
      `INSERT INTO operator_rate_entries (entry_id, source_currency, destination_currency, kind, mid_rate, valid_from, valid_until, reason, operator_id, operator_name, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${COLUMNS}`,
      [entry.entryId, entry.sourceCurrency, entry.destinationCurrency, entry.kind, entry.midRate, entry.validFrom, entry.validUntil, entry.reason, entry.operatorId, entry.operatorName, entry.recordedAt],
    );
    return toEntry(row);
  },

  /**
   * What can apply at `from` or later: per pair the most recently recorded entry whose window had begun by `from`
   * (it hides every older one for good), and every entry that begins after `from`.
   */
  async applicableFrom(db: SqlExecutor, from: string): Promise<OperatorTableEntry[]> {
    const rows = await queryRows<EntryRow>(
      db,
      `(SELECT DISTINCT ON (source_currency, destination_currency) ${COLUMNS} FROM operator_rate_entries
         WHERE valid_from <= $1 ORDER BY source_currency, destination_currency, seq DESC)
       UNION ALL
       (SELECT ${COLUMNS} FROM operator_rate_entries WHERE valid_from > $1)`,
      [from],
    );
    return rows.map(toEntry);
  },

  /** The newest entry recorded (0 when none): the table's version, cheap to ask on every request. */
  async version(db: SqlExecutor): Promise<number> {
    const [row] = await queryRows<{ seq: string | null }>(db, `SELECT max(seq) AS seq FROM operator_rate_entries`);
    return Number(row?.seq ?? 0);
  },

  history(db: SqlExecutor, query: { sourceCurrency?: string; destinationCurrency?: string; limit?: number; cursor?: string }): Promise<Page<OperatorRateEntry>> {
    const conditions: string[] = ['TRUE'];
    const params: unknown[] = [];
    if (query.sourceCurrency) conditions.push(`source_currency = $${params.push(query.sourceCurrency)}`);
    if (query.destinationCurrency) conditions.push(`destination_currency = $${params.push(query.destinationCurrency)}`);
    return keysetPage<EntryRow, OperatorRateEntry>({
      db,
      from: `FROM operator_rate_entries WHERE ${conditions.join(' AND ')}`,
      params,
      keyColumn: 'entry_id',
      limit: query.limit,
      cursor: query.cursor,
      select: COLUMNS,
      toItem: (row) => entryView(toEntry(row)),
      keyOf: (row) => row.entry_id,
    });
  },
};
