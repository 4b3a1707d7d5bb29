import type { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import {
  ApiError,
  CallerContext,
  EffectiveRate,
  isQuoteId,
  ListOperatorRatesQuery,
  OperatorPrincipal,
  operatorActionStream,
  OperatorRate,
  OperatorRateEntry,
  OperatorRateHistoryQuery,
  OperatorRateList,
  Page,
  QuotePricing,
  RatePairBody,
  RatePricing,
  SetOperatorRateRequest,
  statusOf,
  WithdrawOperatorRateQuery,
} from '@payments/contracts';
import { appendNewStreams, EventStore, queryRows } from '@payments/eventsourcing';
import { entryView, operatorRateTable } from './operator-rate-table';
import { OperatorTableEntry } from './production-rate-book';
import { DatabaseProductionRates } from './production-rates';
import { validatePair, validateRateEntry } from './rate-entry.validation';

/** The operator API's rates: the table (set, withdraw, history), the sources' state, and what priced a quote. */
export class OperatorRatesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly rates: DatabaseProductionRates,
  ) {}

  /** Appends the entry and its audit record (`rates.set`) in one transaction. */
  async set(caller: CallerContext, operator: OperatorPrincipal, body: SetOperatorRateRequest & RatePairBody, now: string): Promise<OperatorRateEntry> {
    const valid = validateRateEntry(body, now, this.rates.settings.operatorMaxAgeMs);
    const entry = await this.append(caller, operator, { ...valid, kind: 'SET' }, now, 'rates.set', {
      midRate: valid.midRate,
      validFrom: valid.validFrom,
      validUntil: valid.validUntil,
    });
    return entryView(entry);
  }

  /** Appends a WITHDRAWN entry (`rates.withdraw`); 404 when the pair as written has no operator rate now. */
  async withdraw(caller: CallerContext, operator: OperatorPrincipal, body: WithdrawOperatorRateQuery & RatePairBody, now: string): Promise<OperatorRateEntry> {
    const { sourceCurrency, destinationCurrency } = body;
    validatePair(sourceCurrency, destinationCurrency);
    const reason = body.reason?.trim() || null;
    const entries = await operatorRateTable.applicableFrom(this.dataSource, now);
    const current = currentOf(entries, sourceCurrency, destinationCurrency, now);
    if (current?.kind !== 'SET' || Date.parse(now) >= Date.parse(current.validUntil!)) {
      const other = currentOf(entries, destinationCurrency, sourceCurrency, now);
      const hint = other?.kind === 'SET' ? ` (${destinationCurrency}→${sourceCurrency} has one: withdraw that direction)` : '';
      throw new ApiError('NOT_FOUND', `${sourceCurrency}→${destinationCurrency} has no operator rate to withdraw${hint}`);
    }
    const entry = await this.append(caller, operator, { sourceCurrency, destinationCurrency, kind: 'WITHDRAWN', midRate: null, validFrom: now, validUntil: null, reason }, now, 'rates.withdraw', {
      withdrawnEntryId: current.entryId,
      midRate: current.midRate,
    });
    return entryView(entry);
  }

  history(query: OperatorRateHistoryQuery): Promise<Page<OperatorRateEntry>> {
    return operatorRateTable.history(this.dataSource, query);
  }

  /** The table's current rates and the ECB's published ones, the sources' state, and the effective rate of a pair. */
  async list(query: ListOperatorRatesQuery, now: string): Promise<OperatorRateList> {
    const { sourceCurrency: s, destinationCurrency: d } = query;
    const matches = (rate: { sourceCurrency: string; destinationCurrency: string }) => (!s || rate.sourceCurrency === s) && (!d || rate.destinationCurrency === d);
    const book = await this.rates.book(now);
    const entries = await operatorRateTable.applicableFrom(this.dataSource, now);
    const data: OperatorRate[] = [];
    for (const entry of latestPerPair(entries, now)) {
      if (entry.kind !== 'SET' || !matches(entry)) continue;
      const found = book.entryState(entry);
      data.push({
        sourceCurrency: entry.sourceCurrency,
        destinationCurrency: entry.destinationCurrency,
        midRate: entry.midRate!,
        source: 'OPERATOR_TABLE',
        publishedAt: entry.validFrom,
        validFrom: entry.validFrom,
        validUntil: found.validUntil,
        stale: found.stale,
        entryId: entry.entryId,
        ...(entry.reason !== null ? { reason: entry.reason } : {}),
      });
    }
    for (const rate of book.ecbRates()) if (matches(rate)) data.push(rate);
    const sources = await this.rates.sources(now);
    if (!s || !d) return { data, sources };
    const found = book.lookup(s, d);
    const effective: EffectiveRate = found.ok
      ? { sourceCurrency: s, destinationCurrency: d, pricing: found.rate.pricing }
      : { sourceCurrency: s, destinationCurrency: d, refusal: { status: statusOf(found.error.code), code: found.error.code, message: found.error.message } };
    return { data, sources, effective };
  }

  /** Any platform's quote, either mode (operators oversee them all). */
  async quotePricing(quoteId: string): Promise<QuotePricing> {
    const rows = isQuoteId(quoteId)
      ? await queryRows<{ quote_id: string; platform_id: string; mode: 'SANDBOX' | 'PRODUCTION'; status: string; created_at: Date; body: { sendingCurrency: { code: string }; receivingCurrency: { code: string } }; pricing: RatePricing | null }>(
          this.dataSource,
          `SELECT quote_id, platform_id, mode, status, created_at, body, pricing FROM quotes WHERE quote_id = $1`,
          [quoteId],
        )
      : [];
    const row = rows[0];
    if (!row) throw new ApiError('QUOTE_NOT_FOUND', 'quote not found');
    return {
      quoteId: row.quote_id,
      platformId: row.platform_id,
      mode: row.mode,
      status: row.status,
      createdAt: row.created_at.toISOString(),
      sendingCurrency: row.body.sendingCurrency.code,
      receivingCurrency: row.body.receivingCurrency.code,
      pricing: row.pricing,
    };
  }

  private async append(
    caller: CallerContext,
    operator: OperatorPrincipal,
    entry: Omit<OperatorTableEntry, 'seq' | 'entryId' | 'operatorId' | 'operatorName' | 'recordedAt'>,
    now: string,
    action: string,
    details: Record<string, unknown>,
  ): Promise<OperatorTableEntry> {
    const entryId = `RateEntry:${uuidv7()}`;
    return this.dataSource.transaction(async (tx) => {
      const stored = await operatorRateTable.append(tx, { ...entry, entryId, operatorId: operator.operatorId, operatorName: operator.name, recordedAt: now });
      const audit = operatorActionStream({
        actionId: uuidv7(),
        operator,
        action,
        target: { type: 'RatePair', id: `${entry.sourceCurrency}/${entry.destinationCurrency}` },
        ...(entry.reason ? { reason: entry.reason } : {}),
        details: { entryId, ...details },
        occurredAt: now,
      });
      await appendNewStreams(tx, this.store, [audit], { platformId: null, metadata: { correlationId: caller.correlationId, actor: operator.operatorId } });
      return stored;
    });
  }
}

/** Per pair, the most recently recorded entry whose window has begun at `now`. */
function latestPerPair(entries: readonly OperatorTableEntry[], now: string): OperatorTableEntry[] {
  const byPair = new Map<string, OperatorTableEntry>();
  for (const entry of entries) {
    if (Date.parse(entry.validFrom) > Date.parse(now)) continue;
    const key = `${entry.sourceCurrency}>${entry.destinationCurrency}`;
    const seen = byPair.get(key);
    if (!seen || seen.seq < entry.seq) byPair.set(key, entry);
  }
  return [...byPair.values()].sort((a, b) => a.sourceCurrency.localeCompare(b.sourceCurrency) || a.destinationCurrency.localeCompare(b.destinationCurrency));
}

function currentOf(entries: readonly OperatorTableEntry[], s: string, d: string, now: string): OperatorTableEntry | undefined {
  return latestPerPair(entries, now).find((e) => e.sourceCurrency === s && e.destinationCurrency === d);
}
