import { ApiError, BtcReferenceSource, OperatorRate, RateDerivation, RatePricing, RateSourceName } from '@payments/contracts';
import { findCurrency } from '@payments/money';
import type { EcbReferenceRates } from '../ecb/ecb-reference-rates';
import { decimal, divide, invert, toSignificantDecimal } from '../rate-decimal';
import type { PricedRate, RateBook, RateLookup } from '../rate-source';

/** One row of the operator rate table (append-only): a rate for a window, or the withdrawal of the pair's rate. */
export interface OperatorTableEntry {
  entryId: string;
  /** Order of recording: of two entries whose windows have begun, the later one applies. */
  seq: number;
  sourceCurrency: string;
  destinationCurrency: string;
  kind: 'SET' | 'WITHDRAWN';
  midRate: string | null;
  validFrom: string;
  validUntil: string | null;
  reason: string | null;
  operatorId: string;
  operatorName: string;
  recordedAt: string;
}

/** The ECB document kept in the database, with when this deployment fetched it. */
export interface StoredEcbRates extends EcbReferenceRates {
  fetchedAt: string;
}

/** What production prices from, and the limits of each source. */
export interface ProductionRateSettings {
  /** RATE_MAX_AGE_SECONDS: an operator entry older than this (from its validFrom) is stale even inside its window. */
  operatorMaxAgeMs: number;
  /** ECB_RATES_URL set: the ECB adapter is on. Absent: off. */
  ecb?: {
    url: string;
    /** ECB_MAX_AGE_SECONDS: a document published longer ago than this is stale. */
    maxAgeMs: number;
    /** Why the last fetch failed (this replica), for a refusal's message while no document was ever fetched. */
    lastError?: string;
  };
}

/** Currencies of the ECB's daily document that the platform supports (EUR is its base): what ECB can price at all. */
export const ECB_CURRENCIES = new Set(['EUR', 'USD', 'GBP', 'DKK', 'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'INR', 'MXN', 'MYR', 'PHP', 'SGD', 'THB', 'ZAR']);

const OPERATOR_API = '/operator/v1/rates';

/** A rate a source offers for a pair, before the freshness check. */
interface Candidate {
  source: RateSourceName;
  midRate: string;
  derivation: RateDerivation;
  publishedAt: string;
  /** When it stops pricing: the window's end, or publication plus the source's maximum age. */
  validUntil: string;
  entry?: OperatorTableEntry;
  ecb?: StoredEcbRates;
  /** Why it is stale, for the 503's message. */
  staleness: (at: string) => string | undefined;
}

/**
 * Production's rates at one instant (pure: the entries, the ECB document, the settings and `at` come in as data).
 *
 * Precedence for a pair: the operator table's entry valid now (the pair as set, else the other direction at 1/mid),
 * then the ECB's rate (through EUR). An operator entry is a deliberate, time-boxed decision (a negotiated corridor
 * rate, a correction during a market event) and the ECB's is a once-a-day reference fixing, so the entry wins while
 * its window lasts; when it ends, the ECB's rate applies again. A pair neither source prices is refused with 501
 * (crypto pairs only ever come from the operator table); a pair whose every source is stale is refused with 503.
 */
export class ProductionRateBook implements RateBook {
  /** Per pair `SRC>DST`: its entries, newest recorded first. */
  private readonly byPair = new Map<string, OperatorTableEntry[]>();

  constructor(
    entries: readonly OperatorTableEntry[],
    private readonly ecb: StoredEcbRates | undefined,
    private readonly settings: ProductionRateSettings,
    private readonly at: string,
  ) {
    for (const entry of [...entries].sort((a, b) => b.seq - a.seq)) {
      const key = pairKey(entry.sourceCurrency, entry.destinationCurrency);
      this.byPair.set(key, [...(this.byPair.get(key) ?? []), entry]);
    }
  }

  lookup(sourceCurrency: string, destinationCurrency: string): RateLookup {
    const source = findCurrency(sourceCurrency);
    const destination = findCurrency(destinationCurrency);
    if (!source || !destination || sourceCurrency === destinationCurrency) {
      return refuse(new ApiError('INVALID_CURRENCY', `${sourceCurrency} to ${destinationCurrency} cannot be quoted`));
    }
    const candidates = this.candidates(sourceCurrency, destinationCurrency);
    const fresh = candidates.find((c) => !c.staleness(this.at));
    if (fresh) return { ok: true, rate: this.priced(sourceCurrency, destinationCurrency, fresh) };
    if (candidates.length > 0) return refuse(this.stale(sourceCurrency, destinationCurrency, candidates));
    const pair = `${sourceCurrency}→${destinationCurrency}`;
    const setIt = `PUT ${OPERATOR_API}/${sourceCurrency}/${destinationCurrency} (an ADMIN operator)`;
    if (source.kind === 'CRYPTO' || destination.kind === 'CRYPTO') {
      return refuse(new ApiError('RATE_SOURCE_NOT_CONFIGURED', `${pair} is a crypto corridor: production prices it only from a rate set in the operator rate table with ${setIt}; the ECB publishes no crypto rates`));
    }
    const ecb = this.settings.ecb;
    if (ecb && !this.ecb && ECB_CURRENCIES.has(sourceCurrency) && ECB_CURRENCIES.has(destinationCurrency)) {
      const why = ecb.lastError ? `; the last fetch failed: ${ecb.lastError}` : '';
      return refuse(new ApiError('RATE_UNAVAILABLE', `no rate prices ${pair} yet: the ECB reference rates have not been fetched from ${ecb.url}${why}. Retry later, or set a rate with ${setIt}`));
    }
    const lacking = [sourceCurrency, destinationCurrency].filter((c) => c !== 'EUR' && (this.ecb ? this.ecb.perEur[c] === undefined : !ECB_CURRENCIES.has(c)));
    const ecbNote = ecb ? `the ECB reference rates do not include ${lacking.join(' and ')}` : 'or set ECB_RATES_URL to price the currencies the ECB publishes';
    return refuse(new ApiError('RATE_SOURCE_NOT_CONFIGURED', `no rate source prices ${pair} in production: set a rate with ${setIt}; ${ecbNote}`));
  }

  /** An operator entry's end and whether it is stale now (GET /operator/v1/rates). */
  entryState(entry: OperatorTableEntry): { validUntil: string; stale: boolean } {
    const candidate = this.fromEntry(entry, entry.midRate!, 'DIRECT');
    return { validUntil: candidate.validUntil, stale: candidate.staleness(this.at) !== undefined };
  }

  /** The ECB's euro rates as published (EUR to each supported currency), with their staleness. */
  ecbRates(): OperatorRate[] {
    const doc = this.ecb;
    if (!doc || !this.settings.ecb) return [];
    return Object.keys(doc.perEur)
      .filter((code) => findCurrency(code))
      .sort()
      .map((code) => {
        const c = this.fromEcb('EUR', code)!;
        return { sourceCurrency: 'EUR', destinationCurrency: code, midRate: c.midRate, source: 'ECB', publishedAt: c.publishedAt, validUntil: c.validUntil, stale: c.staleness(this.at) !== undefined, referenceDate: doc.referenceDate };
      });
  }

  /** Every source's offer for the pair, in precedence order. */
  private candidates(s: string, d: string): Candidate[] {
    const list: Candidate[] = [];
    const direct = this.currentEntry(s, d);
    if (direct?.kind === 'SET') list.push(this.fromEntry(direct, direct.midRate!, 'DIRECT'));
    const inverse = this.currentEntry(d, s);
    if (inverse?.kind === 'SET') list.push(this.fromEntry(inverse, toSignificantDecimal(invert(decimal(inverse.midRate!))), 'INVERSE'));
    const ecb = this.fromEcb(s, d);
    if (ecb) list.push(ecb);
    return list;
  }

  /** The most recently recorded entry of the pair whose window has begun at `at`. */
  private currentEntry(s: string, d: string): OperatorTableEntry | undefined {
    const at = Date.parse(this.at);
    return this.byPair.get(pairKey(s, d))?.find((e) => Date.parse(e.validFrom) <= at);
  }

  private fromEntry(entry: OperatorTableEntry, midRate: string, derivation: RateDerivation): Candidate {
    const maxAgeMs = this.settings.operatorMaxAgeMs;
    const ageLimit = Date.parse(entry.validFrom) + maxAgeMs;
    const validUntil = new Date(Math.min(Date.parse(entry.validUntil!), ageLimit)).toISOString();
    return {
      source: 'OPERATOR_TABLE',
      midRate,
      derivation,
      publishedAt: entry.validFrom,
      validUntil,
      entry,
      staleness: (at) => {
        const now = Date.parse(at);
        if (now >= Date.parse(entry.validUntil!)) return `the OPERATOR_TABLE rate of ${entry.sourceCurrency}→${entry.destinationCurrency} (entry ${entry.entryId}, valid from ${entry.validFrom}) expired at ${entry.validUntil}`;
        if (now >= ageLimit) return `the OPERATOR_TABLE rate of ${entry.sourceCurrency}→${entry.destinationCurrency} (entry ${entry.entryId}) was published at ${entry.validFrom}, more than RATE_MAX_AGE_SECONDS=${maxAgeMs / 1000} ago`;
        return undefined;
      },
    };
  }

  /** The ECB's rate of the pair: as published from EUR, its inverse to EUR, else the quotient of two euro rates. */
  private fromEcb(s: string, d: string): Candidate | undefined {
    const doc = this.ecb;
    const settings = this.settings.ecb;
    if (!doc || !settings) return undefined;
    const perEur = (code: string) => (code === 'EUR' ? '1' : doc.perEur[code]);
    if (perEur(s) === undefined || perEur(d) === undefined || !findCurrency(s) || !findCurrency(d)) return undefined;
    const derivation: RateDerivation = s === 'EUR' ? 'DIRECT' : d === 'EUR' ? 'INVERSE' : 'CROSS_VIA_EUR';
    const midRate = derivation === 'DIRECT' ? perEur(d) : toSignificantDecimal(divide(decimal(perEur(d)), decimal(perEur(s))));
    const staleAt = Date.parse(doc.publishedAt) + settings.maxAgeMs;
    return {
      source: 'ECB',
      midRate,
      derivation,
      publishedAt: doc.publishedAt,
      validUntil: new Date(staleAt).toISOString(),
      ecb: doc,
      staleness: (at) =>
        Date.parse(at) >= staleAt ? `the ECB rate (reference date ${doc.referenceDate}, published ${doc.publishedAt}, fetched ${doc.fetchedAt}) is older than ECB_MAX_AGE_SECONDS=${settings.maxAgeMs / 1000}` : undefined,
    };
  }

  private stale(s: string, d: string, candidates: Candidate[]): ApiError {
    const reasons = candidates.map((c) => c.staleness(this.at)).join('; ');
    return new ApiError('RATE_STALE', `no fresh rate prices ${s}→${d}: ${reasons}. Quoting in this corridor resumes with a fresh rate (PUT ${OPERATOR_API}/${s}/${d}, or the ECB's next publication)`);
  }

  private priced(s: string, d: string, c: Candidate): PricedRate {
    const btc = this.btcReference(s, c.source);
    const pricing: RatePricing = {
      source: c.source,
      sourceCurrency: s,
      destinationCurrency: d,
      midRate: c.midRate,
      derivation: c.derivation,
      publishedAt: c.publishedAt,
      validUntil: c.validUntil,
      ...(c.entry ? { entryId: c.entry.entryId } : {}),
      ...(c.ecb ? { referenceDate: c.ecb.referenceDate, fetchedAt: c.ecb.fetchedAt } : {}),
      sourcePerBtc: btc.sourcePerBtc,
      btcReference: btc.source,
    };
    return { sourceCurrency: s, destinationCurrency: d, midRate: c.midRate, sourcePerBtc: btc.sourcePerBtc, validUntil: c.validUntil, updatedAt: c.publishedAt, pricing };
  }

  /**
   * Source units per BTC, behind the mSAT multipliers of a quote's rateDetails: from a fresh BTC rate of the operator
   * table when there is one, else nominal (1): the multipliers' product, what a client checks, is exact either way.
   */
  private btcReference(s: string, pairSource: RateSourceName): { sourcePerBtc: string; source: BtcReferenceSource } {
    if (s === 'BTC') return { sourcePerBtc: '1', source: pairSource };
    const fresh = this.candidates('BTC', s).find((c) => c.source === 'OPERATOR_TABLE' && !c.staleness(this.at));
    return fresh ? { sourcePerBtc: fresh.midRate, source: 'OPERATOR_TABLE' } : { sourcePerBtc: '1', source: 'NOMINAL' };
  }
}

const pairKey = (s: string, d: string) => `${s}>${d}`;
const refuse = (error: ApiError): RateLookup => ({ ok: false, error });
