import type { BUSINESS_TYPES, ContactChannelStatus, CustomerType, ENTITY_TYPES, KycStatus } from './customer-enums';

/**
 * What a platform tells about a customer (request fields after normalisation), without its id number: the API's
 * Customer answers it, identity's customer events carry it (CustomerPublicProfile).
 */
export interface CustomerProfileFields {
  /** ISO 3166-1 alpha-2 */
  region?: string;
  /** @format email */
  email?: string;
  /** E.164 */
  phoneNumber?: string;
  endUserTermsConsent?: { acceptedAt: string; ipAddress: string; termsVersion: string; acceptanceMethod: string };
  address?: Address;
  fullName?: string;
  /** @format date */
  birthDate?: string;
  nationality?: string;
  idType?: string;
  countryOfIssuance?: string;
  sourceOfFundsCategories?: string[];
  sourceOfWealthCategories?: string[];
  purposeOfAccount?: string;
  /** Present when `sourceOfFundsCategories` includes OTHER. */
  sourceOfFundsOtherDescription?: string;
  /** Present when `sourceOfWealthCategories` includes OTHER. */
  sourceOfWealthOtherDescription?: string;
  /** Present when `purposeOfAccount` is OTHER. */
  purposeOfAccountOtherDescription?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  annualIncomeRange?: string;
  netWorthRange?: string;
  pepStatus?: string;
  businessInfo?: CustomerBusinessInfo;
}

/** The Customer resource as the API returns it (individual and business share one shape; type-specific fields). */
export interface Customer extends CustomerProfileFields {
  /** @pattern ^Customer: */
  id: string;
  platformCustomerId: string;
  customerType: CustomerType;
  /** @examples ["$alice@sandbox.uma.money"] */
  umaAddress: string;
  currencies: string[];
  /** Only the channels the customer region requires; absent when none is. */
  contactVerification?: { email?: ContactChannelStatus; phone?: ContactChannelStatus };
  /** Individuals. */
  kycStatus?: KycStatus;
  /** Businesses. */
  kybStatus?: KycStatus;
  /** The identifier is write-only; only its last four digits come back. */
  identifierLast4?: string;
  isDeleted?: boolean;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

export interface EndUserTerms {
  version: string;
  /** @format uri */
  url: string;
}

/**
 * A business customer's details as answered (published BusinessInfoResponse: only `legalName` is always there; a
 * customer imported from CSV may lack `incorporatedOn` and `taxId`).
 */
export interface CustomerBusinessInfo {
  legalName: string;
  doingBusinessAs?: string;
  /** ISO 3166-1 alpha-2: of incorporation or registration */
  country?: string;
  registrationNumber?: string;
  /** @format date */
  incorporatedOn?: string;
  entityType?: (typeof ENTITY_TYPES)[number];
  taxId?: string;
  /** ISO 3166-1 alpha-2 codes */
  countriesOfOperation?: string[];
  businessType?: (typeof BUSINESS_TYPES)[number];
  purposeOfAccount?: string;
  /** Free text: the primary source of the business's funds. */
  sourceOfFunds?: string;
  sourceOfFundsCategories?: string[];
  /** What OTHER among `sourceOfFundsCategories` is. */
  sourceOfFundsOtherDescription?: string;
  /** What the OTHER `purposeOfAccount` is. */
  purposeOfAccountOtherDescription?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  /** ISO 3166-1 alpha-2 codes: where the business expects to send payments */
  expectedRecipientJurisdictions?: string[];
  /** ISO 3166-1 alpha-2 codes: of its expected counterparties */
  expectedCounterpartyCountries?: string[];
  /** 2 to 6 digits */
  naicsCode?: string;
  /** The business's primary contact (a director or authorised representative). */
  primaryContactFirstName?: string;
  primaryContactLastName?: string;
}

/** A postal address as answered (the published Address: city, like line2 and state, may be absent). */
export interface Address {
  line1: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2 */
  country: string;
}
