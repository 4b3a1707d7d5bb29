import type { Mode } from '@payments/contracts';

/**
 * Where receiver lookups get their estimated rates. The quoting service owns exchange rates: `QuotingRateSource` asks
 * it over RPC. `SameCurrencyRateSource` (no quoting configured) offers only the account's own currency.
 */
export interface RateSource {
  /** Units of `to` per unit of `from`, or undefined when the pair cannot be quoted. */
  estimate(platformId: string, mode: Mode, from: string, to: string): Promise<number | undefined>;
}

export class SameCurrencyRateSource implements RateSource {
  estimate(_platformId: string, _mode: Mode, from: string, to: string): Promise<number | undefined> {
    return Promise.resolve(from === to ? 1 : undefined);
  }
}

/** The part of identity's PlatformCurrencyConfig a lookup needs (kept in platform_currencies.configs). */
export interface StoredCurrencyConfig {
  currencyCode: string;
  minAmount?: number;
  maxAmount?: number;
  enabledTransactionTypes?: string[];
}

/** Sending currencies the platform allows for outgoing payments and that have limits (older rows may lack them). */
export function sendingCurrencies(configs: readonly StoredCurrencyConfig[]): Required<Pick<StoredCurrencyConfig, 'currencyCode' | 'minAmount' | 'maxAmount'>>[] {
  return configs
    .filter((c) => !c.enabledTransactionTypes || c.enabledTransactionTypes.includes('OUTGOING'))
    .filter((c) => Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount))
    .map((c) => ({ currencyCode: c.currencyCode, minAmount: c.minAmount!, maxAmount: c.maxAmount! }));
}
