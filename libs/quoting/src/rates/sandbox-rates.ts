import { findCurrency, SUPPORTED_CURRENCY_CODES } from '@payments/money';
import { MidRate, RateSource } from './rate-source';

/** Length of one rate window: the spec's exchange-rate cache of about 5 minutes. */
export const RATE_WINDOW_MS = 5 * 60_000;
/** Largest relative move of a sandbox rate away from its reference (±0.5%). */
export const SANDBOX_DRIFT_MAX = 0.005;
/** Significant digits of a published mid rate. */
const RATE_SIGNIFICANT_DIGITS = 10;

/**
 * Units of each supported currency per one US dollar: a fixed reference table (rounded market levels, sandbox only).
 * Every pair is derived through USD, so the table covers every supported currency pair, crypto included.
 */
export const USD_REFERENCE_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.92, GBP: 0.79, MXN: 17.25, BRL: 5.05, CAD: 1.36, DKK: 6.87, INR: 83.2, NGN: 1550, HKD: 7.82,
  IDR: 15_900, MYR: 4.72, PHP: 56.5, SGD: 1.35, THB: 36.4, VND: 25_400, AED: 3.6725, KES: 129, MWK: 1735, RWF: 1310,
  TZS: 2600, UGX: 3780, XOF: 603.5, XAF: 603.5, ZAR: 18.6, ZMW: 26.5, BWP: 13.6, BDT: 117.5, ARS: 880, COP: 3950,
  EGP: 47.5, GHS: 14.8, GTQ: 7.78, HTG: 132.5, JMD: 156, PKR: 278, CNY: 7.24, BTC: 0.000016, USDC: 1, USDT: 1,
  USDB: 1,
};

/**
 * Stablecoins pegged to USD: they do not drift against it. USDB (Embedded Wallet balances) is a USD stablecoin: the
 * published walkthrough quotes 10 USDB → USD at `exchangeRate: 1.0`.
 */
const USD_PEGGED = new Set(['USD', 'USDC', 'USDT', 'USDB']);

/** The 5-minute window `at` falls in, and when it ends. */
export function rateWindow(at: string): { index: number; endsAt: string } {
  const index = Math.floor(Date.parse(at) / RATE_WINDOW_MS);
  return { index, endsAt: new Date((index + 1) * RATE_WINDOW_MS).toISOString() };
}

/** A stable phase per currency, so currencies do not all move together. */
function phase(code: string): number {
  let h = 0;
  for (const ch of code) h = (h * 31 + ch.charCodeAt(0)) % 1000;
  return h / 1000 * 2 * Math.PI;
}

/**
 * Units of `code` per USD in window `index`: the reference times 1 + 0.5% × sin(index / 12 × 2π + phase). One full
 * cycle takes an hour (12 windows); a window's rate never changes, so reruns and restarts see the same numbers.
 */
export function usdRateInWindow(code: string, index: number): number | undefined {
  const reference = USD_REFERENCE_RATES[code];
  if (reference === undefined) return undefined;
  if (USD_PEGGED.has(code)) return reference;
  return reference * (1 + SANDBOX_DRIFT_MAX * Math.sin((index / 12) * 2 * Math.PI + phase(code)));
}

/** A positive number as a plain decimal string (no exponent) with RATE_SIGNIFICANT_DIGITS significant digits. */
export function toDecimalString(value: number): string {
  if (!(value > 0) || !Number.isFinite(value)) throw new Error(`not a positive rate: ${value}`);
  const magnitude = Math.floor(Math.log10(value));
  const fractionDigits = Math.min(100, Math.max(0, RATE_SIGNIFICANT_DIGITS - 1 - magnitude));
  const fixed = value.toFixed(fractionDigits);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/**
 * The built-in sandbox rate table: every supported pair through USD, moving a little per 5-minute window,
 * deterministically. Computed once per window and cached (the spec's "about 5 minutes").
 */
export class SandboxRateSource implements RateSource {
  private cache?: { index: number; perUsd: Map<string, number> };

  rate(sourceCurrency: string, destinationCurrency: string, at: string): MidRate | undefined {
    if (sourceCurrency === destinationCurrency || !findCurrency(sourceCurrency) || !findCurrency(destinationCurrency)) return undefined;
    const window = rateWindow(at);
    const table = this.table(window.index);
    const source = table.get(sourceCurrency);
    const destination = table.get(destinationCurrency);
    const btc = table.get('BTC');
    if (source === undefined || destination === undefined || btc === undefined) return undefined;
    return {
      sourceCurrency,
      destinationCurrency,
      midRate: toDecimalString(destination / source),
      sourcePerBtc: sourceCurrency === 'BTC' ? '1' : toDecimalString(source / btc),
      validUntil: window.endsAt,
      updatedAt: new Date(window.index * RATE_WINDOW_MS).toISOString(),
    };
  }

  private table(index: number): Map<string, number> {
    if (this.cache?.index !== index) {
      const perUsd = new Map<string, number>();
      for (const code of SUPPORTED_CURRENCY_CODES) {
        const rate = usdRateInWindow(code, index);
        if (rate !== undefined) perUsd.set(code, rate);
      }
      this.cache = { index, perUsd };
    }
    return this.cache.perUsd;
  }
}
