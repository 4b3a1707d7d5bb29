import type { BeneficialOwnerRole, CustomerType, DocumentType, KycStatus } from '@payments/contracts';

/**
 * What a verification looks at, read by the service in the submitting transaction and handed to the decider as
 * data: the customer as it is now, its beneficial owners and the live documents of each holder.
 */
export interface CustomerSnapshot {
  customerId: string;
  customerType: CustomerType;
  kycStatus: KycStatus;
  fullName?: string;
  birthDate?: string;
  nationality?: string;
  address?: object;
  sourceOfWealthCategories?: string[];
  purposeOfAccount?: string;
  annualIncomeRange?: string;
  businessInfo?: { legalName?: string; registrationNumber?: string; taxId?: string };
}

export interface OwnerSnapshot {
  beneficialOwnerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  nationality: string;
  idType: string;
  countryOfIssuance?: string;
}

export interface DocumentRef {
  documentId: string;
  documentType: DocumentType | string;
}

export interface VerificationInputs {
  customer: CustomerSnapshot;
  owners: OwnerSnapshot[];
  /** Live documents per holder id (the customer, and each owner); a holder without any maps to []. */
  documents: Record<string, DocumentRef[]>;
}
