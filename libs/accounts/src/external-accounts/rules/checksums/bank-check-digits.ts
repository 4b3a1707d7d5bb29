/** Check digits of national bank identifiers: each function takes the identifier and returns whether it holds. */

const digitsOf = (value: string): number[] => [...value].map(Number);
const tenComplement = (sum: number): number => (10 - (sum % 10)) % 10;

/** ABA routing number: 3·d1 + 7·d2 + d3 + 3·d4 + … + d9 is a multiple of 10. */
export function abaRoutingNumberValid(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return digitsOf(value).reduce((sum, d, i) => sum + d * weights[i], 0) % 10 === 0;
}

/** Mexican CLABE: weights 3, 7, 1 over the first 17 digits, each product taken mod 10; the 18th is the ten's complement. */
export function clabeValid(value: string): boolean {
  if (!/^\d{18}$/.test(value)) return false;
  const digits = digitsOf(value);
  const sum = digits.slice(0, 17).reduce((acc, d, i) => acc + ((d * [3, 7, 1][i % 3]) % 10), 0);
  return tenComplement(sum) === digits[17];
}

/**
 * Argentine CBU/CVU (22 digits): block one is bank (3) + branch (4) + check digit, weights 7139713; block two is the
 * account (13) + check digit, weights 3971397139713.
 */
export function cbuValid(value: string): boolean {
  if (!/^\d{22}$/.test(value)) return false;
  const digits = digitsOf(value);
  const weighted = (part: number[], weights: number[]) => part.reduce((sum, d, i) => sum + d * weights[i], 0);
  const first = weighted(digits.slice(0, 7), [7, 1, 3, 9, 7, 1, 3]);
  const second = weighted(digits.slice(8, 21), [3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3]);
  return tenComplement(first) === digits[7] && tenComplement(second) === digits[21];
}
