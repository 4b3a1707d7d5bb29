import type { CustomerType, KycStatus, Mode } from '@payments/contracts';

export type ContactChannel = 'email' | 'phone';

/** What the platform told us about the customer (request fields after normalisation). `identifier` is PII. */
export interface CustomerProfile {
  region?: string;
  email?: string;
  phoneNumber?: string;
  endUserTermsConsent?: { acceptedAt: string; ipAddress: string; termsVersion: string; acceptanceMethod: string };
  address?: { line1: string; line2?: string; city: string; state?: string; postalCode: string; country: string };
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  idType?: string;
  identifier?: string;
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
}

export type CustomerCreated = {
  type: 'CustomerCreated.v1';
  data: {
    customerId: string;
    platformId: string;
    mode: Mode;
    customerType: CustomerType;
    platformCustomerId: string;
    umaAddress: string;
    /** Currencies of the customer's internal accounts (the accounts service opens one per currency). */
    currencies: string[];
    profile: CustomerProfile;
    requiredChannels: ContactChannel[];
    createdAt: string;
  };
};

export type CustomerUpdated = {
  type: 'CustomerUpdated.v1';
  data: {
    changes: Partial<CustomerProfile> & { platformCustomerId?: string; umaAddress?: string; currencies?: string[] };
    /** Channels required after the change, and those that must be verified again (a changed email, say). */
    requiredChannels: ContactChannel[];
    resetChannels: ContactChannel[];
    updatedAt: string;
  };
};

export type CustomerDeleted = { type: 'CustomerDeleted.v1'; data: { customerId: string; deletedAt: string } };

/** `codeHash` is a keyed hash of the one-time code; it never leaves the service (redacted from the bus). */
export type ContactCodeIssued = { type: 'ContactCodeIssued.v1'; data: { channel: ContactChannel; codeHash: string; expiresAt: string; issuedAt: string } };
export type ContactCodeRejected = {
  type: 'ContactCodeRejected.v1';
  data: { channel: ContactChannel; failedAttempts: number; lockedUntil: string | null; at: string };
};
export type ContactVerified = { type: 'ContactVerified.v1'; data: { channel: ContactChannel; at: string } };

/** KYC (individuals) or KYB (businesses) status moved; the webhook dispatcher maps it to CUSTOMER.KYC_* / KYB_*. */
export type CustomerKycStatusChanged = {
  type: 'CustomerKycStatusChanged.v1';
  data: { customerType: CustomerType; kycStatus: KycStatus; previous: KycStatus; verificationId?: string; at: string };
};

export type CustomerEvent =
  | CustomerCreated
  | CustomerUpdated
  | CustomerDeleted
  | ContactCodeIssued
  | ContactCodeRejected
  | ContactVerified
  | CustomerKycStatusChanged;
