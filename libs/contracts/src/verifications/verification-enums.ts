/** Enumerations of the Verification and BeneficialOwner resources (interop §6.3). */
export const VERIFICATION_STATUSES = ['RESOLVE_ERRORS', 'PENDING_MANUAL_REVIEW', 'IN_PROGRESS', 'APPROVED', 'REJECTED', 'READY_FOR_VERIFICATION'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_ERROR_TYPES = [
  'MISSING_FIELD', 'INVALID_FIELD', 'MISSING_LEGAL_PRESENCE_DOCUMENT', 'MISSING_CONTROL_STRUCTURE_DOCUMENT', 'MISSING_OWNERSHIP_STRUCTURE_DOCUMENT',
  'MISSING_PROOF_OF_ADDRESS_DOCUMENT', 'MISSING_IDENTITY_DOCUMENT', 'INVALID_DOCUMENT', 'EXPIRED_DOCUMENT', 'POOR_QUALITY_DOCUMENT',
  'SUSPECTED_FRAUD_DOCUMENT', 'WRONG_DOCUMENT_TYPE', 'INCOMPLETE_DOCUMENT', 'UNREADABLE_DOCUMENT', 'DOCUMENT_VERIFICATION_FAILED',
  'APPLICANT_SANCTIONED', 'APPLICANT_FRAUD', 'APPLICANT_CRIMINAL_RECORD', 'APPLICANT_REJECTED', 'MISSING_BENEFICIAL_OWNER',
  'MISSING_CONTROL_PERSON', 'MISSING_GOOD_STANDING_DOCUMENT',
] as const;
export type VerificationErrorType = (typeof VERIFICATION_ERROR_TYPES)[number];

export const BENEFICIAL_OWNER_ROLES = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'] as const;
export type BeneficialOwnerRole = (typeof BENEFICIAL_OWNER_ROLES)[number];

/**
 * How an owner is identified: tax ids for U.S. persons (SSN, ITIN), and for others a foreign tax id or a photo ID
 * (the seed's KYB list: "ITIN, passport with issuing country, alien card or other photo ID").
 */
export const BENEFICIAL_OWNER_ID_TYPES = ['SSN', 'ITIN', 'EIN', 'NON_US_TAX_ID', 'PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'ALIEN_REGISTRATION_CARD'] as const;
export type BeneficialOwnerIdType = (typeof BENEFICIAL_OWNER_ID_TYPES)[number];

/** Identifier types whose value is a U.S. taxpayer number in the ###-##-#### form. */
export const US_TAXPAYER_ID_TYPES: readonly BeneficialOwnerIdType[] = ['SSN', 'ITIN'];
