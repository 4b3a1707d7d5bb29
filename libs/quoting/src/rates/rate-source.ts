import type { ApiError, Mode, RatePricing } from '@payments/contracts';

/** One mid rate as the pricing function takes it: exact decimal strings (DESIGN §7: no floats for money). */
export interface MidRate {
  sourceCurrency: string;
  destinationCurrency: string;
  /** Destination MAJOR units per one source MAJOR unit. */
  midRate: string;
  /** Source MAJOR units per one BTC (for the mSAT multipliers of OutgoingRateDetails). */
  sourcePerBtc: string;
  /** End of the rate window this rate belongs to (ISO 8601); a quote locks it for its own lifetime. */
  validUntil: string;
  /** When the source last refreshed this rate (ISO 8601); GET /exchange-rates' `updatedAt`, the request time when absent. */
  updatedAt?: string;
}

/**
 * A table of mid rates: `SandboxRateSource`, the built-in deterministic table of the sandbox (RateBooks wraps it).
 * Pure of fees: fees come from the fee schedule.
 */
export interface RateSource {
  /** The mid rate of a pair at `at` (ISO 8601), or undefined when the pair cannot be quoted. */
  rate(sourceCurrency: string, destinationCurrency: string, at: string): MidRate | undefined;
}

/** A mid rate with the record of what priced it (kept with each quote). */
export interface PricedRate extends MidRate {
  pricing: RatePricing;
}

/** A pair's rate, or why it cannot be priced: the error the caller answers (501, 503, or 400 for a pair that is not one). */
export type RateLookup = { ok: true; rate: PricedRate } | { ok: false; error: ApiError };

/** Every rate of one mode at one instant: synchronous, so a list (GET /exchange-rates) reads one consistent book. */
export interface RateBook {
  lookup(sourceCurrency: string, destinationCurrency: string): RateLookup;
}

/**
 * The port the quoting paths use: the book of a mode at `at`. The sandbox's is its synthetic table; production's is
 * the operator table and the ECB's rates, read from the database (asynchronous: a rate set through one replica prices
 * in every replica from its next request on).
 */
export interface RateBooks {
  book(mode: Mode, at: string): Promise<RateBook>;
}

/** The pair's rate, or the lookup's error thrown. */
export function requireRate(book: RateBook, sourceCurrency: string, destinationCurrency: string): PricedRate {
  const found = book.lookup(sourceCurrency, destinationCurrency);
  if (!found.ok) throw found.error;
  return found.rate;
}
