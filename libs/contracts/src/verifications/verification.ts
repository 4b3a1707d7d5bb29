import type { Address } from '../customers/customer';
import type { KycStatus } from '../customers/customer-enums';
import type { BeneficialOwnerIdType, BeneficialOwnerRole, VerificationErrorType, VerificationStatus } from './verification-enums';

/** Something a verification needs fixed (or, when REJECTED, why it was refused); `resourceId` is a customer or an owner. */
export interface VerificationError {
  /** The customer or beneficial owner to fix. */
  resourceId: string;
  type: VerificationErrorType;
  /** Dot path of the missing or invalid field, e.g. edd.purposeOfAccount. */
  field?: string;
  /** For a missing document: the types that satisfy it. */
  acceptedDocumentTypes?: string[];
  reason: string;
}

/** The Verification resource as the API returns it. */
export interface Verification {
  /** @pattern ^Verification: */
  id: string;
  /** @pattern ^Customer: */
  customerId: string;
  verificationStatus: VerificationStatus;
  /** RESOLVE_ERRORS: what to fix before submitting again. REJECTED: why. */
  errors: VerificationError[];
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** A beneficial owner's address: the same published Address as a customer's. */
export type BeneficialOwnerAddress = Address;

/** personalInfo as returned: the identifier is write-only, only its last four characters come back. */
export interface BeneficialOwnerPersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  /** @format date */
  birthDate: string;
  /** ISO 3166-1 alpha-2 */
  nationality: string;
  /** @format email */
  email?: string;
  /** E.164 */
  phoneNumber?: string;
  address: BeneficialOwnerAddress;
  idType: BeneficialOwnerIdType;
  /** The identifier is write-only; only its last four characters come back. */
  identifierLast4: string;
  /** ISO 3166-1 alpha-2 */
  countryOfIssuance?: string;
}

/** The BeneficialOwner resource as the API returns it. */
export interface BeneficialOwner {
  /** @pattern ^BeneficialOwner: */
  id: string;
  /** @pattern ^Customer: */
  customerId: string;
  roles: BeneficialOwnerRole[];
  /**
   * @asType integer
   * @minimum 0
   * @maximum 100
   */
  ownershipPercentage: number;
  personalInfo: BeneficialOwnerPersonalInfo;
  /** PENDING until the business is decided; then by the owner’s own check. */
  kycStatus: KycStatus;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const VERIFICATION_ID = new RegExp(`^Verification:${UUID}$`);
const BENEFICIAL_OWNER_ID = new RegExp(`^BeneficialOwner:${UUID}$`);

export const isVerificationId = (value: string): boolean => VERIFICATION_ID.test(value);
export const isBeneficialOwnerId = (value: string): boolean => BENEFICIAL_OWNER_ID.test(value);
