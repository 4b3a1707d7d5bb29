/** Brazilian tax ids (CPF for people, CNPJ for companies), used as PIX keys and as the BRL account holder's taxId. */

const digitsOf = (value: string): number[] => [...value].map(Number);

/** A mod-11 check digit as CPF and CNPJ compute it: 11 − (Σ dᵢ·wᵢ mod 11), with 10 and 11 read as 0. */
function mod11Digit(digits: number[], weights: number[]): number {
  const rest = digits.reduce((sum, d, i) => sum + d * weights[i], 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Brazilian CPF: 11 digits, the last two mod-11 check digits; eleven equal digits are refused by the Receita Federal. */
export function cpfValid(value: string): boolean {
  if (!/^\d{11}$/.test(value) || /^(\d)\1{10}$/.test(value)) return false;
  const d = digitsOf(value);
  return mod11Digit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[9] && mod11Digit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[10];
}

/** Brazilian CNPJ: 14 digits, the last two mod-11 check digits with weights 5..2,9..2 and 6..2,9..2. */
export function cnpjValid(value: string): boolean {
  if (!/^\d{14}$/.test(value) || /^(\d)\1{13}$/.test(value)) return false;
  const d = digitsOf(value);
  const first = mod11Digit(d.slice(0, 12), [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(d.slice(0, 13), [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === d[12] && second === d[13];
}
