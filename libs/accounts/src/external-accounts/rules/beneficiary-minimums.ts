/**
 * The seed's minimum beneficiary fields per currency, as dot paths inside `accountInfo.beneficiary` (beneficiaryType
 * is always required). A path `address` means an address object: line1 and country, and city and postalCode where
 * POSTCODE_CURRENCIES says so. Currencies the seed does not list need the name only.
 */

const INDIVIDUAL_NAME = ['fullName'];
const INDIVIDUAL_NAME_AND_ADDRESS = ['fullName', 'address'];

const INDIVIDUAL_MINIMUMS: Readonly<Record<string, readonly string[]>> = {
  USD: INDIVIDUAL_NAME_AND_ADDRESS,
  GBP: INDIVIDUAL_NAME_AND_ADDRESS,
  EUR: INDIVIDUAL_NAME_AND_ADDRESS,
  MXN: INDIVIDUAL_NAME,
  BRL: INDIVIDUAL_NAME,
  PHP: INDIVIDUAL_NAME,
};

const LEGAL_NAME_AND_ADDRESS = ['businessInfo.legalName', 'address'];
const WITH_REGISTRATION = [...LEGAL_NAME_AND_ADDRESS, 'businessInfo.registrationNumber'];
const WITH_REGISTRATION_AND_TAX_ID = [...WITH_REGISTRATION, 'businessInfo.taxId'];

const BUSINESS_GROUPS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['USD', 'MXN', 'GBP', 'INR', 'BRL', 'DKK', 'PHP', 'HKD', 'IDR', 'MYR', 'SGD', 'THB', 'VND', 'AED'], LEGAL_NAME_AND_ADDRESS],
  [['EUR'], WITH_REGISTRATION],
  [['NGN', 'ZAR', 'KES', 'TZS', 'RWF', 'ZMW', 'UGX', 'BWP', 'MWK', 'XOF', 'XAF'], WITH_REGISTRATION_AND_TAX_ID],
];
const BUSINESS_MINIMUMS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  BUSINESS_GROUPS.flatMap(([currencies, paths]) => currencies.map((currency) => [currency, paths])),
);

/** Where a business sender (originator) must also give the beneficiary business's registrationNumber. */
export const SENDER_REGISTRATION_CURRENCIES: ReadonlySet<string> = new Set(['GBP', 'INR', 'BRL', 'DKK', 'PHP', 'HKD', 'IDR', 'MYR', 'SGD', 'THB', 'VND', 'AED']);

/** Currencies whose minimum spells out city and postalCode (USD, GBP, EUR): there every beneficiary address needs a postalCode, an individual's a city too. */
export const POSTCODE_CURRENCIES: ReadonlySet<string> = new Set(['USD', 'GBP', 'EUR']);

export function minimumIndividualFields(currency: string): readonly string[] {
  return INDIVIDUAL_MINIMUMS[currency] ?? INDIVIDUAL_NAME;
}

export function minimumBusinessFields(currency: string, senderIsBusiness: boolean): readonly string[] {
  const paths = BUSINESS_MINIMUMS[currency] ?? ['businessInfo.legalName'];
  return senderIsBusiness && SENDER_REGISTRATION_CURRENCIES.has(currency) ? [...new Set([...paths, 'businessInfo.registrationNumber'])] : paths;
}
