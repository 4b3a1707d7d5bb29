import type { FieldError } from '@payments/contracts';
import { isCalendarDate } from '@payments/contracts';
import { AccountTypeRow, BeneficiaryExtras, Variant } from './account-type-row';
import { minimumBusinessFields, minimumIndividualFields, POSTCODE_CURRENCIES } from './beneficiary-minimums';
import { Check, Format } from './field-rule';
import { countryCode, e164, email, oneOf, text } from './formats';
import { isObject, stringFieldErrors } from './object-fields';

export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const DOCUMENT_TYPES = ['CC', 'CE', 'TI', 'NIT', 'PP'] as const;

export interface BeneficiaryContext {
  row: AccountTypeRow;
  variant?: Variant;
  currency: string;
  senderIsBusiness: boolean;
  /** YYYY-MM-DD; birthDate must be before it. */
  today?: string;
}

const AT = 'accountInfo.beneficiary';

const birthDate = (today?: string): Format => ({
  check: ((v) => (!isCalendarDate(v) ? 'must be a date in YYYY-MM-DD format' : today && v >= today ? 'must be in the past' : undefined)) as Check,
  constraint: { format: 'date' },
});

/** Contact fields both kinds of beneficiary may carry (the published API's beneficiaries have them all). */
const CONTACT_FORMATS: Record<string, Format> = { phoneNumber: e164(), countryOfResidence: countryCode(), email: email() };

const individualFormats = (today?: string): Record<string, Format> => ({
  fullName: text(200),
  birthDate: birthDate(today),
  nationality: countryCode(),
  documentType: oneOf(DOCUMENT_TYPES),
  documentNumber: text(64),
  ...CONTACT_FORMATS,
});

const ADDRESS_FORMATS: Record<string, Format> = { line1: text(200), line2: text(200), city: text(100), state: text(100), postalCode: text(20), country: countryCode() };
/** A business's names: inside `businessInfo` (the seed's form) or beside beneficiaryType (the published flat form). */
export const BUSINESS_INFO_FORMATS: Record<string, Format> = { legalName: text(250), taxId: text(64), registrationNumber: text(64) };
export const BUSINESS_INFO_FIELDS = Object.keys(BUSINESS_INFO_FORMATS);

/** `accountInfo.beneficiary`: present exactly when the row takes one, and complete for the currency and the row. */
export function beneficiaryErrors(beneficiary: unknown, context: BeneficiaryContext): FieldError[] {
  if (context.row.beneficiary === 'none') {
    return beneficiary === undefined ? [] : [{ field: AT, message: `beneficiary is not accepted: a ${context.row.accountType} takes no beneficiary` }];
  }
  if (beneficiary === undefined) return [{ field: AT, message: 'beneficiary is required for fiat accounts' }];
  if (!isObject(beneficiary)) return [{ field: AT, message: 'beneficiary must be an object' }];
  const type = beneficiary.beneficiaryType;
  if (type !== 'INDIVIDUAL' && type !== 'BUSINESS') {
    return [{ field: `${AT}.beneficiaryType`, message: `beneficiaryType must be one of ${BENEFICIARY_TYPES.join(', ')}`, constraint: { enum: [...BENEFICIARY_TYPES] } }];
  }
  return type === 'INDIVIDUAL' ? individualErrors(beneficiary, context) : businessErrors(beneficiary, context);
}

function requiredPaths(base: readonly string[], type: keyof BeneficiaryExtras, context: BeneficiaryContext): Set<string> {
  return new Set([...base, ...(context.row.beneficiaryExtras?.[type] ?? []), ...(context.variant?.beneficiary?.[type] ?? [])]);
}

function individualErrors(beneficiary: Record<string, unknown>, context: BeneficiaryContext): FieldError[] {
  const needed = requiredPaths(minimumIndividualFields(context.currency), 'individual', context);
  // A document is its type and its number: either one asks for the other.
  if (beneficiary.documentType !== undefined || beneficiary.documentNumber !== undefined) ['documentType', 'documentNumber'].forEach((f) => needed.add(f));
  const formats = individualFormats(context.today);
  return [
    ...stringFieldErrors(beneficiary, formats, needed, AT, ['beneficiaryType', 'address']),
    ...addressErrors(beneficiary.address, needed.has('address'), context.currency, true),
  ];
}

function businessErrors(beneficiary: Record<string, unknown>, context: BeneficiaryContext): FieldError[] {
  const needed = requiredPaths(minimumBusinessFields(context.currency, context.senderIsBusiness), 'business', context);
  const infoNeeded = new Set([...needed].filter((p) => p.startsWith('businessInfo.')).map((p) => p.slice('businessInfo.'.length)));
  const flat = BUSINESS_INFO_FIELDS.filter((field) => beneficiary[field] !== undefined);
  const info = beneficiary.businessInfo;
  const errors: FieldError[] = [];
  if (info === undefined) {
    // The published flat form: legalName, taxId and registrationNumber beside beneficiaryType.
    errors.push(...stringFieldErrors(beneficiary, { ...BUSINESS_INFO_FORMATS, ...CONTACT_FORMATS }, infoNeeded, AT, ['beneficiaryType', 'address']));
  } else if (flat.length > 0) {
    errors.push(...flat.map((field) => ({ field: `${AT}.${field}`, message: `${field} goes in businessInfo or beside beneficiaryType, not both` })));
  } else {
    errors.push(...stringFieldErrors(beneficiary, CONTACT_FORMATS, new Set(), AT, ['beneficiaryType', 'address', 'businessInfo']));
    if (!isObject(info)) errors.push({ field: `${AT}.businessInfo`, message: 'businessInfo must be an object' });
    else errors.push(...stringFieldErrors(info, BUSINESS_INFO_FORMATS, infoNeeded, `${AT}.businessInfo`));
  }
  return [...errors, ...addressErrors(beneficiary.address, needed.has('address'), context.currency, false)];
}

function addressErrors(address: unknown, isRequired: boolean, currency: string, individual: boolean): FieldError[] {
  const at = `${AT}.address`;
  if (address === undefined) return isRequired ? [{ field: at, message: `address is required for ${currency} beneficiaries` }] : [];
  if (!isObject(address)) return [{ field: at, message: 'address must be an object' }];
  // The published Address requires line1, postalCode and country; the seed spells out city and postalCode for USD, GBP
  // and EUR individuals only (a business there needs "address"), so elsewhere an address needs line1 and country.
  const spelledOut = POSTCODE_CURRENCIES.has(currency);
  const needed = new Set(['line1', 'country', ...(spelledOut ? ['postalCode'] : []), ...(spelledOut && individual ? ['city'] : [])]);
  return stringFieldErrors(address, ADDRESS_FORMATS, needed, at);
}
