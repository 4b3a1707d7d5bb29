import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { BackgroundWork, EgressClient } from '@payments/runtime';
import type { StoredEcbRates } from '../production/production-rate-book';
import { ECB_DOCUMENT_MAX_BYTES, EcbReferenceRates, parseEcbReferenceRates } from './ecb-reference-rates';

/** The ECB adapter's settings (ECB_RATES_URL, ECB_REFRESH_SECONDS, ECB_MAX_AGE_SECONDS). */
export interface EcbRatesOptions {
  url: string;
  refreshMs: number;
  maxAgeMs: number;
  /** Per fetch: connecting, the answer and the body. */
  timeoutMs: number;
}

/** ECB_REFRESH_SECONDS by default: hourly, so a publication around 16:00 CET prices within the hour. */
export const ECB_REFRESH_SECONDS_DEFAULT = 3600;
/**
 * ECB_MAX_AGE_SECONDS by default: 4.5 days. The ECB publishes on TARGET working days only, so Friday's rates must
 * cover the weekend and a Friday or Monday holiday (96 hours), plus 12 hours for the publication and the refresh
 * to land. Easter (Thursday to Tuesday, 120 hours) goes stale on Tuesday morning until that day's publication.
 */
export const ECB_MAX_AGE_SECONDS_DEFAULT = 108 * 3600;

interface DocumentRow {
  id: string;
  reference_date: string;
  published_at: Date;
  per_eur: Record<string, string>;
  fetched_at: Date;
}

/** The ECB documents kept in the database, one per reference date: a restart prices from the last one at once. */
export const ecbRateStore = {
  /** Keeps the document unless that reference date is already kept (the ECB does not republish a day). */
  async save(db: SqlExecutor, rates: EcbReferenceRates, fetchedAt: string, url: string): Promise<void> {
    await queryRows(
      db,
      `INSERT INTO ecb_rate_documents (reference_date, published_at, per_eur, fetched_at, source_url) VALUES ($1, $2, $3::jsonb, $4, $5)
       ON CONFLICT (reference_date) DO NOTHING`,
      [rates.referenceDate, rates.publishedAt, JSON.stringify(rates.perEur), fetchedAt, url],
    );
  },

  async latest(db: SqlExecutor): Promise<StoredEcbRates | undefined> {
    const [row] = await queryRows<DocumentRow>(
      db,
      `SELECT id, to_char(reference_date, 'YYYY-MM-DD') AS reference_date, published_at, per_eur, fetched_at FROM ecb_rate_documents ORDER BY reference_date DESC LIMIT 1`,
    );
    return row && { referenceDate: row.reference_date, publishedAt: row.published_at.toISOString(), perEur: row.per_eur, fetchedAt: row.fetched_at.toISOString() };
  },

  /** The newest document's id (0 when none): its version, cheap to ask on every request. */
  async version(db: SqlExecutor): Promise<number> {
    const [row] = await queryRows<{ id: string | null }>(db, `SELECT max(id) AS id FROM ecb_rate_documents`);
    return Number(row?.id ?? 0);
  },
};

/** What this replica last saw of the ECB (GET /operator/v1/rates shows it; a refusal names the error). */
export interface EcbFetchStatus {
  lastAttemptAt?: string;
  lastError?: string;
  lastSuccessAt?: string;
}

/**
 * Fetches the ECB's document on a schedule (at start, then every ECB_REFRESH_SECONDS) through the egress client, so it
 * never reaches a private network unless EGRESS_ALLOW_PRIVATE_NETWORKS allows it, and keeps it in the database.
 * Every replica fetches on its own; the database keeps one document per reference date.
 */
export class EcbRatesFetcher implements BackgroundWork {
  readonly status: EcbFetchStatus = {};
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly db: SqlExecutor,
    private readonly egress: Pick<EgressClient, 'get'>,
    readonly options: EcbRatesOptions,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  start(): void {
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One fetch (a fetch already under way is joined, not doubled). Never throws: the outcome is in `status`. */
  refresh(): Promise<void> {
    this.running ??= this.fetchOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  private async fetchOnce(): Promise<void> {
    const attemptAt = new Date().toISOString();
    this.status.lastAttemptAt = attemptAt;
    try {
      const response = await this.egress.get(this.options.url, {
        headers: { accept: 'application/xml, text/xml' },
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: ECB_DOCUMENT_MAX_BYTES + 1,
        purpose: 'ECB reference rates',
      });
      if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
      if (response.body.length > ECB_DOCUMENT_MAX_BYTES) throw new Error(`the document is larger than ${ECB_DOCUMENT_MAX_BYTES} bytes`);
      const rates = parseEcbReferenceRates(response.body.toString('utf8'));
      await ecbRateStore.save(this.db, rates, attemptAt, this.options.url);
      this.status.lastSuccessAt = attemptAt;
      delete this.status.lastError;
    } catch (error) {
      this.status.lastError = error instanceof Error ? error.message : String(error);
      this.log(`ECB reference rates: the fetch from ${this.options.url} failed (the last document kept still prices until it is stale)`, error);
    }
  }
}
