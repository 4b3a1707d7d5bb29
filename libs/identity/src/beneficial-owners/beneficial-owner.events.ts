import type {
  BeneficialOwnerAddedData,
  BeneficialOwnerKycStatusChangedData,
  BeneficialOwnerUpdatedData,
  Catalogued,
  IDENTITY_EVENTS,
  OwnerPublicPersonalInfo,
} from '@payments/contracts';

export type { OwnerKycStatus } from '@payments/contracts';

/** What the platform told us about the person. `identifier` is PII: kept in the log, never published, never returned. */
export interface OwnerPersonalInfo extends OwnerPublicPersonalInfo {
  identifier: string;
}

/** The public data is declared in libs/contracts (IDENTITY_EVENTS); the log keeps the id number too. */
export type BeneficialOwnerAdded = { type: 'BeneficialOwnerAdded.v1'; data: Omit<BeneficialOwnerAddedData, 'personalInfo'> & { personalInfo: OwnerPersonalInfo } };

/** Only what changed; `personalInfo` holds only the changed fields of it (an address as a whole). */
export type BeneficialOwnerUpdated = {
  type: 'BeneficialOwnerUpdated.v1';
  data: { changes: Omit<BeneficialOwnerUpdatedData['changes'], 'personalInfo'> & { personalInfo?: Partial<OwnerPersonalInfo> }; updatedAt: string };
};

/** The owner was verified (sandbox: by the suffix of its lastName, once the business's verification is decided). */
export type BeneficialOwnerKycStatusChanged = { type: 'BeneficialOwnerKycStatusChanged.v1'; data: BeneficialOwnerKycStatusChangedData };

export type BeneficialOwnerEvent = BeneficialOwnerAdded | BeneficialOwnerUpdated | BeneficialOwnerKycStatusChanged;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, BeneficialOwnerEvent> = true;
