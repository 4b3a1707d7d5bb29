import { SUPPORTED_CURRENCY_CODES, findCurrency } from '@payments/money';
import { AccountTypeRow, fieldIdentifier, firstOfIdentifier, rails } from '../account-type-row';
import { Check, optional, required, stringField } from '../field-rule';
import { and, bic, countryCode, digits, iban, isCountryCode, matches, text } from '../formats';

/**
 * SEPA scheme countries whose IBANs a EUR account takes: the EU, the rest of the EEA, and Switzerland, the UK,
 * Monaco, San Marino, Vatican City, Andorra and Gibraltar.
 */
export const SEPA_COUNTRIES = [
  'AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT', 'NL',
  'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'IS', 'LI', 'NO', 'CH', 'GB', 'MC', 'SM', 'VA', 'AD', 'GI',
];

/** The Danish krone is also the currency of the Faroe Islands and Greenland, which issue their own IBANs. */
const DKK_COUNTRIES = ['DK', 'FO', 'GL'];

const FIAT_CURRENCIES = SUPPORTED_CURRENCY_CODES.filter((code) => findCurrency(code)?.kind === 'FIAT');

/** SWIFT: the IBAN or BIC must belong to the bank's `country` (checked once `country` itself is valid). */
const inCountry =
  (countryAt: (value: string) => string, what: string): Check =>
  (value, info) => {
    const country = stringField(info, 'country');
    return isCountryCode(country) && countryAt(value) !== country ? `must be ${what} in country ${country}` : undefined;
  };

export const BANK_ROWS_EUROPE_MIDDLE_EAST: readonly AccountTypeRow[] = [
  {
    accountType: 'EUR_ACCOUNT',
    currencies: ['EUR'],
    fields: { iban: required(iban(SEPA_COUNTRIES)), swiftCode: optional(bic()), bankName: optional(text()) },
    beneficiary: 'required',
    identifier: fieldIdentifier('iban'),
    paymentRails: rails('SEPA', 'SEPA_INSTANT'),
  },
  {
    accountType: 'GBP_ACCOUNT',
    currencies: ['GBP'],
    fields: { sortCode: required(digits(6)), accountNumber: required(digits(8)) },
    beneficiary: 'required',
    beneficiaryExtras: { individual: ['address'], business: ['address'] },
    identifier: fieldIdentifier('accountNumber'),
    paymentRails: rails('FASTER_PAYMENTS'),
  },
  {
    accountType: 'DKK_ACCOUNT',
    currencies: ['DKK'],
    fields: { iban: required(iban(DKK_COUNTRIES)), swiftCode: optional(bic(DKK_COUNTRIES)) },
    beneficiary: 'required',
    identifier: fieldIdentifier('iban'),
    paymentRails: rails('SEPA', 'SEPA_INSTANT'), // as the published API lists them for DKK
  },
  {
    accountType: 'AED_ACCOUNT',
    currencies: ['AED'],
    fields: { iban: required(iban(['AE'])), swiftCode: optional(bic(['AE'])) },
    beneficiary: 'required',
    beneficiaryExtras: { individual: ['address'], business: ['address'] },
    identifier: fieldIdentifier('iban'),
    paymentRails: rails('BANK_TRANSFER'),
  },
  {
    accountType: 'SWIFT_ACCOUNT',
    currencies: FIAT_CURRENCIES,
    fields: {
      swiftCode: required(and(bic(), inCountry((v) => v.slice(4, 6), 'the BIC of a bank'))),
      bankName: required(text()),
      country: required(countryCode()),
    },
    variants: [
      { name: 'account number', key: 'accountNumber', fields: { accountNumber: required(matches(/^[A-Z0-9]{1,34}$/, '1 to 34 upper-case letters and digits')) } },
      { name: 'IBAN', key: 'iban', fields: { iban: required(and(iban(), inCountry((v) => v.slice(0, 2), 'an IBAN'))) } },
    ],
    beneficiary: 'required',
    identifier: firstOfIdentifier('iban', 'accountNumber'),
    paymentRails: rails('SWIFT'),
  },
];
