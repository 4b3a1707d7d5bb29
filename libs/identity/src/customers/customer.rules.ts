import { CustomerType, FieldError, isScaRegion } from '@payments/contracts';
import { findCurrency } from '@payments/money';
import { ContactChannel, CustomerProfile } from './customer.events';

const INDIVIDUAL_ONLY: (keyof CustomerProfile)[] = [
  'fullName', 'birthDate', 'nationality', 'idType', 'identifier', 'countryOfIssuance', 'sourceOfFundsCategories', 'sourceOfWealthCategories',
  'purposeOfAccount', 'sourceOfFundsOtherDescription', 'sourceOfWealthOtherDescription', 'purposeOfAccountOtherDescription', 'expectedMonthlyTransactionCount', 'expectedMonthlyTransactionVolume', 'annualIncomeRange', 'netWorthRange', 'pepStatus',
];

/** Rules over a whole profile (after a create or a patch) that the request DTO alone cannot express. */
export function profileErrors(type: CustomerType, profile: CustomerProfile, currencies: string[], today: string): FieldError[] {
  const errors: FieldError[] = [];
  const err = (field: string, message: string) => errors.push({ field, message });
  if (type === 'INDIVIDUAL') {
    if (profile.businessInfo) err('businessInfo', 'businessInfo is only for BUSINESS customers');
    if (profile.birthDate && profile.birthDate >= today) err('birthDate', 'birthDate must be in the past');
    if (profile.identifier && profile.idType !== 'SSN' && profile.idType !== 'ITIN') err('idType', 'an identifier needs idType SSN or ITIN');
    otherDescriptionErrors(profile, err);
  } else {
    if (!profile.businessInfo) err('businessInfo', 'businessInfo is required for BUSINESS customers');
    for (const field of INDIVIDUAL_ONLY) if (profile[field] !== undefined) err(field, `${field} is only for INDIVIDUAL customers`);
    if (profile.businessInfo?.incorporatedOn && profile.businessInfo.incorporatedOn > today) err('businessInfo.incorporatedOn', 'incorporatedOn must not be in the future');
  }
  if (isScaRegion(profile.region)) {
    if (!profile.email) err('email', `email is required for customers in ${profile.region}`);
    if (!profile.phoneNumber) err('phoneNumber', `phoneNumber is required for customers in ${profile.region}`);
  }
  if (profile.address) addressErrors(profile.address, 'address', err);
  if (profile.endUserTermsConsent && profile.endUserTermsConsent.acceptedAt.slice(0, 10) > today) {
    err('endUserTermsConsent.acceptedAt', 'acceptedAt must not be in the future');
  }
  currencies.forEach((c, i) => findCurrency(c) || err(`currencies.${i}`, `unsupported currency ${c}`));
  return errors;
}

function addressErrors(address: NonNullable<CustomerProfile['address']>, at: string, err: (f: string, m: string) => void): void {
  if (address.country === 'US') {
    if (!address.state || !/^[A-Z]{2}$/.test(address.state)) err(`${at}.state`, 'US addresses need a two-letter state');
    if (!/^\d{5}(-\d{4})?$/.test(address.postalCode)) err(`${at}.postalCode`, 'US postal codes are ZIP or ZIP+4');
  }
  if (address.country === 'CA' && !/^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i.test(address.postalCode)) err(`${at}.postalCode`, 'Canadian postal codes look like A1A 1A1');
  if (address.country === 'GB' && !/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i.test(address.postalCode)) err(`${at}.postalCode`, 'not a UK postcode');
}

/** Channels a region's rules require: both in the EU/EEA (where email and phone are mandatory), none elsewhere. */
export function requiredChannels(profile: CustomerProfile): ContactChannel[] {
  return isScaRegion(profile.region) ? ['email', 'phone'] : [];
}

/** The published rule: OTHER needs its description (one left from an earlier OTHER is kept, not refused). */
const OTHER_DESCRIPTIONS = [
  ['sourceOfFundsOtherDescription', (p: CustomerProfile) => p.sourceOfFundsCategories?.includes('OTHER'), 'sourceOfFundsCategories includes OTHER'],
  ['sourceOfWealthOtherDescription', (p: CustomerProfile) => p.sourceOfWealthCategories?.includes('OTHER'), 'sourceOfWealthCategories includes OTHER'],
  ['purposeOfAccountOtherDescription', (p: CustomerProfile) => p.purposeOfAccount === 'OTHER', 'purposeOfAccount is OTHER'],
] as const;

function otherDescriptionErrors(profile: CustomerProfile, err: (field: string, message: string) => void): void {
  for (const [field, isOther, when] of OTHER_DESCRIPTIONS) {
    if (isOther(profile) && !profile[field]) err(field, `${field} is required when ${when}`);
  }
}
