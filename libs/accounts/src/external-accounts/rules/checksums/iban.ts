/**
 * IBAN lengths by country, from the SWIFT IBAN Registry (ISO 13616). Only these countries' IBANs are recognised;
 * per-country BBAN layouts and national check digits are not checked here (ibantools would add them).
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22,
  GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27,
  MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33,
  SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29,
  VA: 22, VG: 24, XK: 20,
};

/** ISO 7064 MOD 97-10 over the rearranged IBAN (country and check digits moved to the end, letters as 10..35). */
export function ibanMod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/**
 * Why `value` is not an IBAN from one of `countries` (any registry country when omitted), or undefined.
 * Electronic format only: upper case, no spaces.
 */
export function ibanProblem(value: string, countries?: readonly string[]): string | undefined {
  return ibanFormatProblem(value, countries) ?? ibanChecksumProblem(value);
}

/** The IBAN's layout: electronic format, a country that issues IBANs (one of `countries`), its registry length. */
export function ibanFormatProblem(value: string, countries?: readonly string[]): string | undefined {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value)) return 'must be an IBAN in electronic format: country, check digits, then letters and digits, no spaces';
  const country = value.slice(0, 2);
  if (countries && !countries.includes(country)) return `must be an IBAN from ${countries.join(', ')}`;
  const length = IBAN_LENGTHS[country];
  if (!length) return `has a country prefix ${country} that does not issue IBANs`;
  return value.length === length ? undefined : `must be ${length} characters for ${country}`;
}

/** The IBAN's check digits (of a value in IBAN format). */
export const ibanChecksumProblem = (value: string): string | undefined => (ibanMod97(value) === 1 ? undefined : 'has check digits that fail ISO 13616 MOD 97-10');
