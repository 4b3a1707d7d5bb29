import type { ContactChannelStatus, CustomerType, KycStatus } from './customer-enums';

/** The Customer resource as the API returns it (individual and business share one shape; type-specific fields). */
export interface Customer {
  id: string;
  platformCustomerId: string;
  customerType: CustomerType;
  umaAddress: string;
  region?: string;
  currencies: string[];
  email?: string;
  phoneNumber?: string;
  endUserTermsConsent?: { acceptedAt: string; ipAddress: string; termsVersion: string; acceptanceMethod: string };
  address?: { line1: string; line2?: string; city: string; state?: string; postalCode: string; country: string };
  contactVerification?: { email?: ContactChannelStatus; phone?: ContactChannelStatus };
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  idType?: string;
  /** Never returned in full: the last four digits of the identifier. */
  identifierLast4?: string;
  countryOfIssuance?: string;
  sourceOfFundsCategories?: string[];
  sourceOfWealthCategories?: string[];
  purposeOfAccount?: string;
  expectedMonthlyTransactionCount?: string;
  expectedMonthlyTransactionVolume?: string;
  annualIncomeRange?: string;
  netWorthRange?: string;
  pepStatus?: string;
  businessInfo?: { legalName: string; country: string; incorporatedOn: string; taxId: string; [field: string]: unknown };
  isDeleted?: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface EndUserTerms {
  version: string;
  url: string;
}
