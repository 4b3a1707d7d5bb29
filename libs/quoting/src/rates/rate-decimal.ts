import { mul, parseDecimal, Rational, reduce } from '@payments/money';

/**
 * Significant digits of a derived rate (an inverse 1/mid, an ECB cross rate). The exact quotient rarely ends, so it is
 * rounded half up to 15 significant digits: a relative error below 5e-15, under one minor unit for any amount below
 * 2e14 minor units.
 */
export const DERIVED_RATE_SIGNIFICANT_DIGITS = 15;

/** a / b, exactly (b > 0). */
export function divide(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('division by zero');
  return mul(a, { num: b.den, den: b.num });
}

/** 1 / r, exactly (r > 0). */
export function invert(r: Rational): Rational {
  return divide({ num: 1n, den: 1n }, r);
}

/** A positive decimal string as an exact rational; throws on anything else (callers pass validated strings). */
export function decimal(text: string): Rational {
  const r = parseDecimal(text);
  if (!r || r.num === 0n) throw new RangeError(`not a positive decimal: ${text}`);
  return r;
}

/** A positive rational as a plain decimal string rounded half up to `digits` significant digits, trailing zeros removed. */
export function toSignificantDecimal(value: Rational, digits = DERIVED_RATE_SIGNIFICANT_DIGITS): string {
  const r = reduce(value);
  if (r.num <= 0n || r.den <= 0n) throw new RangeError('not a positive rational');
  // e = floor(log10(r)): from the digit counts, corrected by one comparison.
  let e = r.num.toString().length - r.den.toString().length;
  if (e >= 0 ? r.num < r.den * 10n ** BigInt(e) : r.num * 10n ** BigInt(-e) < r.den) e -= 1;
  const scale = digits - 1 - e; // decimal places that keep `digits` significant digits
  const scaledNum = scale >= 0 ? r.num * 10n ** BigInt(scale) : r.num;
  const scaledDen = scale >= 0 ? r.den : r.den * 10n ** BigInt(-scale);
  const rounded = (2n * scaledNum + scaledDen) / (2n * scaledDen); // half up
  if (scale <= 0) return (rounded * 10n ** BigInt(-scale)).toString();
  const text = rounded.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

