import type { Mode, ReceiverCurrency } from '@payments/contracts';
import { currencyObject, findCurrency } from '@payments/money';

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

type Limits = Required<Pick<StoredCurrencyConfig, 'currencyCode' | 'minAmount' | 'maxAmount'>>;

/** Sending currencies the platform allows for outgoing payments and that have limits (older rows may lack them). */
export function sendingCurrencies(configs: readonly StoredCurrencyConfig[]): Limits[] {
  return configs
    .filter((c) => !c.enabledTransactionTypes || c.enabledTransactionTypes.includes('OUTGOING'))
    .filter((c) => Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount))
    .map((c) => ({ currencyCode: c.currencyCode, minAmount: c.minAmount!, maxAmount: c.maxAmount! }));
}

/** The sending currencies to estimate from, best first: those the sender holds (in the platform's order), then the rest. */
export function sendingCurrencyCandidates(configs: readonly StoredCurrencyConfig[], held: readonly string[]): Limits[] {
  const sending = sendingCurrencies(configs);
  return [...sending.filter((c) => held.includes(c.currencyCode)), ...sending.filter((c) => !held.includes(c.currencyCode))];
}

/**
 * The account's currency as a lookup lists it. min/max are the platform's limits of that currency when it has them,
 * else the sending currency's limits converted at `rate` (min up, max down), like the UMA lookup's.
 */
export function receiverCurrency(receiving: string, rate: number, configs: readonly StoredCurrencyConfig[], sending: Limits): ReceiverCurrency {
  const own = configs.find((c) => c.currencyCode === receiving && Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount));
  const scale = rate * 10 ** ((findCurrency(receiving)?.decimals ?? 0) - (findCurrency(sending.currencyCode)?.decimals ?? 0));
  const safe = (n: number) => Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, n));
  const min = own ? own.minAmount! : safe(Math.ceil(sending.minAmount * scale));
  const max = own ? own.maxAmount! : Math.max(min, safe(Math.floor(sending.maxAmount * scale)));
  return { currency: currencyObject(receiving), estimatedExchangeRate: rate, min, max };
}
