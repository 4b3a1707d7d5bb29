import { AddressCodecs, checksumBlindCodecs } from '@payments/addresses';
import { E164 } from '@payments/contracts';
import { isValid as isCountry } from 'i18n-iso-countries';
import { ibanChecksumProblem, ibanFormatProblem } from './checksums/iban';
import { Check, Format } from './field-rule';

/** Value formats the table is written in. Each returns a `Format`: a check plus the constraint a client can show. */

const lengthText = (min: number, max: number) => (min === max ? `${min}` : `${min} to ${max}`);

export function digits(min: number, max = min): Format {
  const pattern = new RegExp(`^\\d{${min},${max}}$`);
  return { check: (v) => (pattern.test(v) ? undefined : `must be ${lengthText(min, max)} digits`), constraint: { pattern: pattern.source } };
}

export function matches(pattern: RegExp, description: string): Format {
  return { check: (v) => (pattern.test(v) ? undefined : `must be ${description}`), constraint: { pattern: pattern.source } };
}

export function oneOf(values: readonly string[]): Format {
  return { check: (v) => (values.includes(v) ? undefined : `must be one of ${values.join(', ')}`), constraint: { enum: [...values] } };
}

/** Free text such as a bank name: not blank, at most `maxLength` characters. */
export function text(maxLength = 140): Format {
  return {
    check: (v) => (v.trim() === '' ? 'must not be blank' : v.length > maxLength ? `must be at most ${maxLength} characters` : undefined),
    constraint: { minLength: 1, maxLength },
  };
}

/** Adds a further check (a cross-field rule) after a format's own. */
export function and(format: Format, further: Check): Format {
  return { ...format, check: (v, info) => format.check(v, info) ?? further(v, info) };
}

/** A format whose value also carries check digits or a checksum, which `Checksums` may relax. */
export function withChecksum(format: Format, checksum: Check): Format {
  return { ...format, checksum };
}

/** A boolean predicate as a check with a fixed message. */
export const holds = (predicate: (value: string) => boolean, message: string): Check => (v) => (predicate(v) ? undefined : message);

/**
 * A blockchain address validated by a function of `@payments/addresses` that explains what is wrong: its format is
 * the function with checksums unverified, its checksum the function itself.
 */
export function addressFormat(problem: (value: string, codecs?: AddressCodecs) => string | undefined, format: string): Format {
  return { check: (v) => problem(v, checksumBlindCodecs), checksum: (v) => problem(v), constraint: { format } };
}

export const BANK_ACCOUNT_TYPE = oneOf(['CHECKING', 'SAVINGS']);

export const EMAIL_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const EMAIL_LENGTH_MAX = 254; // RFC 5321's limit of a forward path

export function email(): Format {
  return { check: (v) => (v.length <= EMAIL_LENGTH_MAX && EMAIL_ADDRESS.test(v) ? undefined : `must be an e-mail address of at most ${EMAIL_LENGTH_MAX} characters`), constraint: { format: 'email', maxLength: EMAIL_LENGTH_MAX } };
}

export function e164(): Format {
  return { check: (v) => (E164.test(v) ? undefined : 'must be an E.164 phone number: + then up to 15 digits'), constraint: { pattern: E164.source } };
}

export const isCountryCode = (value: string): boolean => /^[A-Z]{2}$/.test(value) && isCountry(value);

export function countryCode(allowed?: readonly string[]): Format {
  return {
    check: (v) => (!isCountryCode(v) ? 'must be an ISO 3166-1 alpha-2 country code' : allowed && !allowed.includes(v) ? `must be one of ${allowed.join(', ')}` : undefined),
    constraint: allowed ? { enum: [...allowed] } : { pattern: '^[A-Z]{2}$' },
  };
}

export function iban(countries?: readonly string[]): Format {
  return { check: (v) => ibanFormatProblem(v, countries), checksum: ibanChecksumProblem, constraint: { format: 'iban', ...(countries ? { prefixes: [...countries] } : {}) } };
}

/** BIC (ISO 9362): bank (4 letters), country (2), location (2), optional branch (3). */
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** A BIC, 8 or 11 characters, whose country letters are a real country (and one of `countries` when given). */
export function bic(countries?: readonly string[]): Format {
  const check: Check = (v) => {
    if (!BIC.test(v)) return 'must be a BIC of 8 or 11 characters (4 letters bank, 2 letters country, 2 location, optional 3 branch)';
    const country = v.slice(4, 6);
    if (!isCountryCode(country) && country !== 'XK') return `has ${country} in place of an ISO country code`;
    return countries && !countries.includes(country) ? `must be a BIC of a bank in ${countries.join(', ')}` : undefined;
  };
  return { check, constraint: { pattern: BIC.source } };
}
