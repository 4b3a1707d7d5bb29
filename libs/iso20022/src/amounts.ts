import { findCurrency } from '@payments/money';
import { Iso20022Error } from './errors';

/** ISO 4217 minor-unit digits of a fiat currency this platform knows; crypto tickers are not ISO 20022 currencies. */
export function currencyDecimals(code: string, where: string): number {
  const c = /^[A-Z]{3}$/.test(code) ? findCurrency(code) : undefined;
  if (!c || c.kind !== 'FIAT') throw new Iso20022Error('UNKNOWN_CURRENCY', `${where}: unknown currency "${code}"`);
  return c.decimals;
}

/** Minor units → the decimal text ISO 20022 carries (12345, 2 → "123.45"); integer arithmetic only. */
export function formatMinor(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${fraction}` : ''}`;
}

const DECIMAL = /^(\d{1,18})(?:\.(\d{1,18}))?$/;

/**
 * The decimal text of an amount → minor units, exactly. A sign, an exponent, or a non-zero digit below the currency's
 * minor unit (12.345 EUR) is refused rather than rounded; trailing zeros past it ("12.300") are the same value.
 */
export function parseDecimalToMinor(text: string, decimals: number, where: string): bigint {
  const m = DECIMAL.exec(text);
  if (!m) throw new Iso20022Error('INVALID_AMOUNT', `${where}: "${text}" is not a non-negative decimal amount`);
  const fraction = m[2] ?? '';
  if (/[1-9]/.test(fraction.slice(decimals))) {
    throw new Iso20022Error('INVALID_AMOUNT', `${where}: "${text}" has more than ${decimals} decimal places`);
  }
  return BigInt(m[1] + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/** Minor units as the platform's number, refused when beyond exact integer range. */
export function toSafeNumber(minor: bigint, where: string): number {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new Iso20022Error('INVALID_AMOUNT', `${where}: amount too large`);
  return Number(minor);
}

/** An `<Amt Ccy="EUR">12.30</Amt>`-shaped element → currency and exact minor units. */
export function readAmount(node: { text(name: string): string } & { node: Record<string, unknown>; path: string; attr(name: string): string | undefined }): { currency: string; minor: bigint } {
  const ccy = node.attr('Ccy');
  if (!ccy) throw new Iso20022Error('MISSING_ELEMENT', `${node.path} has no Ccy`);
  const text = node.node['#text'];
  if (text === undefined || text === '') throw new Iso20022Error('MISSING_ELEMENT', `${node.path} has no amount`);
  return { currency: ccy, minor: parseDecimalToMinor(String(text), currencyDecimals(ccy, node.path), node.path) };
}
