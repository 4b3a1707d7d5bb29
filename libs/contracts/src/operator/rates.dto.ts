import { IsISO8601, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { Mode } from '../rpc/rpc';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';

/**
 * Where a mid rate came from: the sandbox's synthetic table, the operator-managed rate table (`/operator/v1/rates`),
 * or the European Central Bank's euro foreign exchange reference rates.
 */
export type RateSourceName = 'SANDBOX' | 'OPERATOR_TABLE' | 'ECB';

/**
 * How the pair's rate came out of what its source published: as published (`DIRECT`), one over the rate of the other
 * direction (`INVERSE`), the quotient of two euro rates (`CROSS_VIA_EUR`: USD→MXN = EURMXN / EURUSD), or the
 * sandbox's drifting reference table (`SYNTHETIC`).
 */
export type RateDerivation = 'DIRECT' | 'INVERSE' | 'CROSS_VIA_EUR' | 'SYNTHETIC';

/** Where the BTC reference behind a quote's mSAT multipliers (rateDetails) came from. */
export type BtcReferenceSource = RateSourceName | 'NOMINAL';

/** What priced a rate: kept with every quote (its pricing record) and shown beside every current rate. */
export interface RatePricing {
  source: RateSourceName;
  /** @examples ["USD"] */
  sourceCurrency: string;
  /** @examples ["EUR"] */
  destinationCurrency: string;
  /** Destination major units per source major unit, exact decimal. @examples ["0.9123"] */
  midRate: string;
  derivation: RateDerivation;
  /**
   * When the source published the rate (ISO 8601): the start of an operator entry's validity, the ECB's publication of
   * its reference date (16:00 Frankfurt time), the start of the sandbox's 5-minute window.
   */
  publishedAt: string;
  /** When the rate stops pricing: an operator entry's `validUntil`, or `publishedAt` plus the source's maximum age. */
  validUntil: string;
  /** OPERATOR_TABLE: the table entry that priced it. */
  entryId?: string;
  /** ECB: the reference date of the document (YYYY-MM-DD). */
  referenceDate?: string;
  /** ECB: when this deployment fetched the document. */
  fetchedAt?: string;
  /** Source major units per BTC behind the mSAT multipliers. */
  sourcePerBtc: string;
  /** NOMINAL: no BTC rate is configured, the multipliers use 1 BTC = 1 unit of the source currency (their product stays exact). */
  btcReference: BtcReferenceSource;
}

/** GET /operator/v1/quotes/{quoteId}/pricing: which source, at which publication time, priced a quote. */
export interface QuotePricing {
  quoteId: string;
  platformId: string;
  mode: Mode;
  status: string;
  createdAt: string;
  sendingCurrency: string;
  receivingCurrency: string;
  /** Null for a quote created before pricing records were kept. */
  pricing: RatePricing | null;
}

/** One entry of the operator rate table's history: entries are appended, never changed. */
export interface OperatorRateEntry {
  /** @examples ["RateEntry:0190f3b1-7c1e-7000-8000-000000000000"] */
  id: string;
  sourceCurrency: string;
  destinationCurrency: string;
  /** SET: a rate for the window; WITHDRAWN: from `validFrom` on the pair has no operator rate. */
  kind: 'SET' | 'WITHDRAWN';
  /** SET only. */
  midRate?: string;
  validFrom: string;
  /** SET only. */
  validUntil?: string;
  reason?: string;
  operator: { id: string; name: string };
  recordedAt: string;
}

/** A rate as the operator API shows it now: what prices, from which source, until when, and whether it is stale. */
export interface OperatorRate {
  sourceCurrency: string;
  destinationCurrency: string;
  midRate: string;
  source: RateSourceName;
  publishedAt: string;
  /** OPERATOR_TABLE: the start of the entry's window. */
  validFrom?: string;
  validUntil: string;
  /** True when it no longer prices: past `validUntil` or older than the source's maximum age. */
  stale: boolean;
  /** OPERATOR_TABLE: the entry. */
  entryId?: string;
  reason?: string;
  /** ECB: the document's reference date. */
  referenceDate?: string;
}

/** The state of one rate source of the deployment. */
export interface RateSourceStatus {
  source: 'OPERATOR_TABLE' | 'ECB';
  /** ECB: ECB_RATES_URL is set. The operator table is always there (it may be empty). */
  configured: boolean;
  /** RATE_MAX_AGE_SECONDS (operator table) or ECB_MAX_AGE_SECONDS. */
  maxAgeSeconds: number;
  /** ECB: where the document is fetched. */
  url?: string;
  /** ECB: ECB_REFRESH_SECONDS. */
  refreshSeconds?: number;
  /** ECB: the newest document kept. */
  referenceDate?: string;
  publishedAt?: string;
  fetchedAt?: string;
  /** ECB: the last fetch this replica tried, and its error when it failed. */
  lastAttemptAt?: string;
  lastError?: string;
  /** ECB: the newest document is older than the maximum age (or there is none). */
  stale?: boolean;
}

/** Whether a pair can be priced now, and from what (GET /operator/v1/rates with both currencies). */
export interface EffectiveRate {
  sourceCurrency: string;
  destinationCurrency: string;
  /** What a quote would be priced at now (before fees). */
  pricing?: RatePricing;
  /** Why a quote in this corridor is refused now: the error it answers. */
  refusal?: { status: number; code: string; message: string };
}

/** GET /operator/v1/rates. */
export interface OperatorRateList {
  /** The operator table's rates (the entry that applies now, or the last one, stale) and the ECB's published euro rates. */
  data: OperatorRate[];
  sources: RateSourceStatus[];
  /** Only when both sourceCurrency and destinationCurrency are given: the rate a quote in that corridor gets now. */
  effective?: EffectiveRate;
}

const CURRENCY = /^[A-Z]{3,5}$/;
const CURRENCY_MESSAGE = 'a currency code (3 to 5 capital letters)';
/** A positive decimal written plainly: digits, an optional point and more digits (no sign, exponent or grouping). */
export const RATE_DECIMAL = /^\d{1,15}(\.\d{1,20})?$/;

export class ListOperatorRatesQuery {
  @OptionalNotNull() @IsString() @Matches(CURRENCY, { message: `sourceCurrency must be ${CURRENCY_MESSAGE}` }) sourceCurrency?: string;
  @OptionalNotNull() @IsString() @Matches(CURRENCY, { message: `destinationCurrency must be ${CURRENCY_MESSAGE}` }) destinationCurrency?: string;
}

export class OperatorRateHistoryQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(CURRENCY, { message: `sourceCurrency must be ${CURRENCY_MESSAGE}` }) sourceCurrency?: string;
  @OptionalNotNull() @IsString() @Matches(CURRENCY, { message: `destinationCurrency must be ${CURRENCY_MESSAGE}` }) destinationCurrency?: string;
}

/** PUT /operator/v1/rates/{sourceCurrency}/{destinationCurrency}. */
export class SetOperatorRateRequest {
  /** Destination major units per source major unit, as an exact decimal string: "0.9123", never a JSON number. */
  @IsString() @Matches(RATE_DECIMAL, { message: 'midRate must be a positive decimal string such as "0.9123" (at most 15 integer and 20 fraction digits)' }) midRate!: string;
  /** When the rate starts to price (ISO 8601); now when left out. */
  @OptionalNotNull() @IsISO8601({ strict: true }) validFrom?: string;
  /** When it stops (ISO 8601): after validFrom, and at most RATE_MAX_AGE_SECONDS after it. */
  @IsISO8601({ strict: true }) validUntil!: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(500) reason?: string;
}

/** DELETE /operator/v1/rates/{sourceCurrency}/{destinationCurrency}. */
export class WithdrawOperatorRateQuery {
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(500) reason?: string;
}
