import { UmaReceiverCurrency } from '@payments/contracts';
import { currencyObject, findCurrency } from '@payments/money';
import type { CurrencyLimits } from '../platform-config/identity-events.consumer';

/** A sending currency's limits, smallest units. */
export interface AmountLimits {
  min: number;
  max: number;
}

/**
 * One supported currency of a UMA receiver. min/max are the platform's limits of the receiving currency when it has
 * them; otherwise the sending currency's limits converted at the mid rate (min rounded up, max down), so a platform
 * that only configured USD still learns what its USD limits buy in EUR.
 */
export function receiverCurrency(receiving: string, estimatedExchangeRate: number, receivingLimits: AmountLimits | undefined, sending: { code: string; limits: AmountLimits }): UmaReceiverCurrency {
  const limits = receivingLimits ?? convertLimits(sending.limits, sending.code, receiving, estimatedExchangeRate);
  return { currency: currencyObject(receiving), estimatedExchangeRate, min: limits.min, max: limits.max };
}

/** Limits in `from`'s smallest unit → `to`'s, at `rate` (major `to` units per major `from` unit); kept safe and ordered. */
export function convertLimits(limits: AmountLimits, from: string, to: string, rate: number): AmountLimits {
  const scale = 10 ** ((findCurrency(to)?.decimals ?? 0) - (findCurrency(from)?.decimals ?? 0));
  const safe = (n: number) => Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, n));
  const min = safe(Math.ceil(limits.min * rate * scale));
  const max = safe(Math.floor(limits.max * rate * scale));
  return { min, max: Math.max(min, max) };
}

/** The configured limits of `code`, when both are safe integers. */
export function limitsOf(configs: readonly CurrencyLimits[], code: string): AmountLimits | undefined {
  const c = configs.find((x) => x.currencyCode === code);
  return c && Number.isSafeInteger(c.minAmount) && Number.isSafeInteger(c.maxAmount) ? { min: c.minAmount!, max: c.maxAmount! } : undefined;
}
