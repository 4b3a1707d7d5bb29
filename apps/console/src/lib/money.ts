/** A currency as the API describes it (`Currency`), or just its code where a resource names only that. */
export interface CurrencyInfo {
  code: string;
  decimals?: number;
  symbol?: string;
}

/** Decimals of currencies the API names by code alone, where Intl knows none (crypto) or differs. */
const KNOWN_DECIMALS: Record<string, number> = { BTC: 8, SAT: 0, USDC: 6, USDT: 6, PYUSD: 6, USDB: 6, ETH: 18, SOL: 9 };

/** The currency's decimal places: the API's own when it gave them, else ISO 4217's (via Intl), else the table above, else 2. */
export function decimalsOf(currency: CurrencyInfo | string): number {
  const info = typeof currency === 'string' ? { code: currency } : currency;
  if (typeof info.decimals === 'number' && Number.isInteger(info.decimals) && info.decimals >= 0) return info.decimals;
  if (info.code in KNOWN_DECIMALS) return KNOWN_DECIMALS[info.code];
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: info.code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/**
 * An integer amount in the currency's smallest unit as a decimal string in major units, exactly (string arithmetic:
 * an int64 amount or 18 decimals never goes through a float). `1234, 2` → `12.34`; `-5, 2` → `-0.05`.
 */
export function minorToMajor(amount: number | string | bigint, decimals: number): string {
  const text = BigInt(amount).toString();
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals > 0 ? `.${digits.slice(digits.length - decimals)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/**
 * What a person typed in major units (`12.34`, `1,000.5`) as the integer in minor units; an error message when it is
 * not a number, is negative, or has more decimals than the currency has.
 */
export function majorToMinor(typed: string, decimals: number): { minor: number } | { error: string } {
  const text = typed.trim().replace(/,/g, '');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(text)) return { error: 'enter an amount such as 12.34' };
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > decimals) return { error: decimals === 0 ? 'this currency has no decimal places' : `at most ${decimals} decimal places` };
  const minor = BigInt((whole || '0') + fraction.padEnd(decimals, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { error: 'amount too large' };
  return { minor: Number(minor) };
}

/** An amount for people: grouped digits in the viewer's locale, the currency's decimals, its code. */
export function formatAmount(amount: number | string | bigint, currency: CurrencyInfo | string, locale?: string): string {
  const code = typeof currency === 'string' ? currency : currency.code;
  const decimals = decimalsOf(currency);
  const major = minorToMajor(amount, decimals);
  // Intl formats a decimal string exactly (no float on the way); the code follows, as crypto has no ISO symbol.
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(major as unknown as number);
  return `${number} ${code}`;
}
