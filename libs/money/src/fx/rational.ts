/** Exact non-negative rationals over bigint, for FX rates. Never floats for money. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Parses a plain positive-or-zero decimal string ("17.2345") exactly; undefined when malformed. */
export function parseDecimal(text: string): Rational | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const frac = m[2] ?? '';
  return reduce({ num: BigInt(m[1] + frac), den: 10n ** BigInt(frac.length) });
}

export function reduce(r: Rational): Rational {
  const g = gcd(r.num, r.den);
  return g === 0n || g === 1n ? r : { num: r.num / g, den: r.den / g };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function mul(a: Rational, b: Rational): Rational {
  return reduce({ num: a.num * b.num, den: a.den * b.den });
}

/** floor(n / d) for n >= 0, d > 0. */
export function floorDiv(n: bigint, d: bigint): bigint {
  return n / d;
}

/** ceil(n / d) for n >= 0, d > 0. */
export function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** A float view of a rational, for display-only `number` fields. */
export function toNumber(r: Rational): number {
  const scale = 10n ** 30n;
  return Number((r.num * scale) / r.den) / 1e30;
}
