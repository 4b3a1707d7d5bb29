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
 * Where mid rates come from. A market-data adapter implements it in production; `SandboxRateSource` is the built-in
 * deterministic table. Pure of fees: fees come from the fee schedule.
 */
export interface RateSource {
  /** The mid rate of a pair at `at` (ISO 8601), or undefined when the pair cannot be quoted. */
  rate(sourceCurrency: string, destinationCurrency: string, at: string): MidRate | undefined;
}
