import type { KycStatus } from '../customers/customer-enums';
import type { BeneficialOwnerRole, VerificationErrorType, VerificationStatus } from './verification-enums';

/** Something a verification needs fixed (or, when REJECTED, why it was refused); `resourceId` is a customer or an owner. */
export interface VerificationError {
  resourceId: string;
  type: VerificationErrorType;
  field?: string;
  acceptedDocumentTypes?: string[];
  reason: string;
}

/** The Verification resource as the API returns it. */
export interface Verification {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
}

export interface BeneficialOwnerAddress {
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

/** personalInfo as returned: the identifier is write-only, only its last four characters come back. */
export interface BeneficialOwnerPersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address: BeneficialOwnerAddress;
  idType: string;
  identifierLast4: string;
  countryOfIssuance?: string;
}

/** The BeneficialOwner resource as the API returns it. */
export interface BeneficialOwner {
  id: string;
  customerId: string;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: BeneficialOwnerPersonalInfo;
  kycStatus: KycStatus;
  createdAt: string;
  updatedAt: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const VERIFICATION_ID = new RegExp(`^Verification:${UUID}$`);
const BENEFICIAL_OWNER_ID = new RegExp(`^BeneficialOwner:${UUID}$`);

export const isVerificationId = (value: string): boolean => VERIFICATION_ID.test(value);
export const isBeneficialOwnerId = (value: string): boolean => BENEFICIAL_OWNER_ID.test(value);
