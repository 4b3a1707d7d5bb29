import { Format } from './field-rule';

/**
 * Mobile numbers the table accepts, by country: calling code and how many national digits follow it (E.164 form,
 * no trunk zero). Lengths the seed gives are its own (KE, TZ, ZM, RW, MW, UG, SN, CI, BJ); the rest are the national
 * numbering plans' mobile lengths.
 */
export const PHONE_PLANS = {
  KE: { callingCode: '254', digits: [9, 9] },
  TZ: { callingCode: '255', digits: [9, 9] },
  ZM: { callingCode: '260', digits: [9, 9] },
  RW: { callingCode: '250', digits: [9, 9] },
  MW: { callingCode: '265', digits: [9, 9] },
  UG: { callingCode: '256', digits: [9, 9] },
  SN: { callingCode: '221', digits: [9, 9] },
  CI: { callingCode: '225', digits: [10, 10] },
  BJ: { callingCode: '229', digits: [8, 9] },
  CM: { callingCode: '237', digits: [9, 9] },
  CG: { callingCode: '242', digits: [9, 9] },
  BW: { callingCode: '267', digits: [8, 8] },
  CO: { callingCode: '57', digits: [10, 10] },
  SV: { callingCode: '503', digits: [8, 8] },
  BD: { callingCode: '880', digits: [10, 10] },
  CN: { callingCode: '86', digits: [11, 11] },
  EG: { callingCode: '20', digits: [10, 10] },
  GH: { callingCode: '233', digits: [9, 9] },
  PK: { callingCode: '92', digits: [10, 10] },
  HT: { callingCode: '509', digits: [8, 8] },
  ID: { callingCode: '62', digits: [9, 12] },
  BR: { callingCode: '55', digits: [10, 11] },
} as const satisfies Record<string, { callingCode: string; digits: readonly [number, number] }>;

export type PhoneCountry = keyof typeof PHONE_PLANS;

export function phonePattern(country: PhoneCountry): RegExp {
  const { callingCode, digits } = PHONE_PLANS[country];
  return new RegExp(`^\\+${callingCode}\\d{${digits[0]},${digits[1]}}$`);
}

export function describePhone(country: PhoneCountry): string {
  const { callingCode, digits } = PHONE_PLANS[country];
  const count = digits[0] === digits[1] ? `${digits[0]}` : `${digits[0]} or ${digits[1]}`;
  return `+${callingCode} then ${count} digits`;
}

/** The country among `countries` whose plan the number fits, if any. */
export const phoneCountryOf = (value: string, countries: readonly PhoneCountry[]): PhoneCountry | undefined =>
  countries.find((country) => phonePattern(country).test(value));

/** A mobile number of one of `countries` (E.164, that country's calling code and length). */
export function phoneIn(...countries: PhoneCountry[]): Format {
  const patterns = countries.map((c) => phonePattern(c).source);
  return {
    check: (value) => (phoneCountryOf(value, countries) ? undefined : `must be ${countries.map(describePhone).join(', or ')}`),
    constraint: { pattern: patterns.length === 1 ? patterns[0] : patterns.map((p) => `(${p})`).join('|') },
  };
}
