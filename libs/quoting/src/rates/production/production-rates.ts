import type { RateSourceStatus } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { EcbFetchStatus } from '../ecb/ecb-rates';
import { ecbRateStore } from '../ecb/ecb-rates';
import type { ProductionRateBooks } from '../rate-books';
import { operatorRateTable } from './operator-rate-table';
import { OperatorTableEntry, ProductionRateBook, ProductionRateSettings, StoredEcbRates } from './production-rate-book';

/** RATE_MAX_AGE_SECONDS by default: 3 days, so a rate set on a Friday can cover the weekend. */
export const OPERATOR_RATE_MAX_AGE_SECONDS_DEFAULT = 3 * 86_400;

/** How far back a snapshot reaches, so a request whose clock read a little earlier than the load still finds its entry. */
const SNAPSHOT_MARGIN_MS = 60_000;

interface Snapshot {
  version: string;
  loadedFrom: number;
  entries: OperatorTableEntry[];
  ecb?: StoredEcbRates;
}

/**
 * Production's rates from the database. Each book costs one small query (the versions of the operator table and the
 * ECB documents); the entries and the newest document are read again only when a version moved. So a rate set or a
 * document fetched through any replica prices in every replica from its next request on, with no polling interval
 * to wait out and no per-request scan of the table's history.
 */
export class DatabaseProductionRates implements ProductionRateBooks {
  private snapshot?: Snapshot;

  constructor(
    private readonly db: SqlExecutor,
    readonly settings: Omit<ProductionRateSettings, 'ecb'>,
    readonly ecb?: { url: string; maxAgeMs: number; refreshMs: number; status: EcbFetchStatus },
  ) {}

  async book(at: string): Promise<ProductionRateBook> {
    const snapshot = await this.load(at);
    return new ProductionRateBook(snapshot.entries, snapshot.ecb, this.bookSettings(), at);
  }

  /** The sources' state for GET /operator/v1/rates. */
  async sources(at: string): Promise<RateSourceStatus[]> {
    const snapshot = await this.load(at);
    const table: RateSourceStatus = { source: 'OPERATOR_TABLE', configured: true, maxAgeSeconds: this.settings.operatorMaxAgeMs / 1000 };
    const ecb = this.ecb;
    if (!ecb) return [table, { source: 'ECB', configured: false, maxAgeSeconds: 0 }];
    const doc = snapshot.ecb;
    return [
      table,
      {
        source: 'ECB',
        configured: true,
        maxAgeSeconds: ecb.maxAgeMs / 1000,
        url: ecb.url,
        refreshSeconds: ecb.refreshMs / 1000,
        ...(doc ? { referenceDate: doc.referenceDate, publishedAt: doc.publishedAt, fetchedAt: doc.fetchedAt } : {}),
        ...(ecb.status.lastAttemptAt ? { lastAttemptAt: ecb.status.lastAttemptAt } : {}),
        ...(ecb.status.lastError ? { lastError: ecb.status.lastError } : {}),
        stale: !doc || Date.parse(at) >= Date.parse(doc.publishedAt) + ecb.maxAgeMs,
      },
    ];
  }

  /** The entries that can apply at `at` or later, and the newest ECB document: reloaded when a version moved. */
  private async load(at: string): Promise<Snapshot> {
    const [row] = await queryRows<{ entries: string | null; documents: string | null }>(
      this.db,
      `SELECT (SELECT max(seq) FROM operator_rate_entries) AS entries, (SELECT max(id) FROM ecb_rate_documents) AS documents`,
    );
    const version = `${row?.entries ?? 0}/${row?.documents ?? 0}`;
    const now = Date.parse(at);
    const current = this.snapshot;
    if (current && current.version === version && current.loadedFrom <= now) return current;
    const loadedFrom = now - SNAPSHOT_MARGIN_MS;
    const [entries, ecb] = await Promise.all([operatorRateTable.applicableFrom(this.db, new Date(loadedFrom).toISOString()), this.ecb ? ecbRateStore.latest(this.db) : Promise.resolve(undefined)]);
    const loaded: Snapshot = { version, loadedFrom, entries, ...(ecb ? { ecb } : {}) };
    // Two loads racing both hold a correct snapshot of their version; the next request checks the version again anyway.
    this.snapshot = loaded;
    return loaded;
  }

  private bookSettings(): ProductionRateSettings {
    const ecb = this.ecb;
    return {
      operatorMaxAgeMs: this.settings.operatorMaxAgeMs,
      ...(ecb ? { ecb: { url: ecb.url, maxAgeMs: ecb.maxAgeMs, ...(ecb.status.lastError ? { lastError: ecb.status.lastError } : {}) } } : {}),
    };
  }
}
