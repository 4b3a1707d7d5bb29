import type { BeneficialOwnerIdType, BeneficialOwnerRole, KycStatus, Mode } from '@payments/contracts';

/** What the platform told us about the person. `identifier` is PII: kept in the log, redacted from the bus, never returned. */
export interface OwnerPersonalInfo {
  firstName: string;
  middleName?: string;
  lastName: string;
  birthDate: string;
  nationality: string;
  email?: string;
  phoneNumber?: string;
  address: { line1: string; line2?: string; city: string; state?: string; postalCode: string; country: string };
  idType: BeneficialOwnerIdType;
  identifier: string;
  countryOfIssuance?: string;
}

/** An owner's own verification outcome: PENDING until the business it belongs to is decided. */
export type OwnerKycStatus = Extract<KycStatus, 'PENDING' | 'APPROVED' | 'REJECTED'>;

export type BeneficialOwnerAdded = {
  type: 'BeneficialOwnerAdded.v1';
  data: {
    beneficialOwnerId: string;
    customerId: string;
    platformId: string;
    mode: Mode;
    roles: BeneficialOwnerRole[];
    ownershipPercentage: number;
    personalInfo: OwnerPersonalInfo;
    createdAt: string;
  };
};

/** Only what changed; `personalInfo` holds only the changed fields of it (an address as a whole). */
export type BeneficialOwnerUpdated = {
  type: 'BeneficialOwnerUpdated.v1';
  data: {
    changes: { roles?: BeneficialOwnerRole[]; ownershipPercentage?: number; personalInfo?: Partial<OwnerPersonalInfo> };
    updatedAt: string;
  };
};

/** The owner was verified (sandbox: by the suffix of its lastName, once the business's verification is decided). */
export type BeneficialOwnerKycStatusChanged = {
  type: 'BeneficialOwnerKycStatusChanged.v1';
  data: { beneficialOwnerId: string; customerId: string; kycStatus: OwnerKycStatus; previous: OwnerKycStatus; verificationId?: string; at: string };
};

export type BeneficialOwnerEvent = BeneficialOwnerAdded | BeneficialOwnerUpdated | BeneficialOwnerKycStatusChanged;
