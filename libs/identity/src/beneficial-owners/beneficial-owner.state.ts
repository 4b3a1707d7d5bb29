import type { BeneficialOwnerRole, Mode } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { BeneficialOwnerEvent, OwnerKycStatus, OwnerPersonalInfo } from './beneficial-owner.events';

export interface BeneficialOwnerRecord {
  beneficialOwnerId: string;
  customerId: string;
  platformId: string;
  mode: Mode;
  roles: BeneficialOwnerRole[];
  ownershipPercentage: number;
  personalInfo: OwnerPersonalInfo;
  kycStatus: OwnerKycStatus;
  createdAt: string;
  updatedAt: string;
}

export type BeneficialOwnerState = { status: 'NONE' } | ({ status: 'ACTIVE' } & BeneficialOwnerRecord);

export function evolveBeneficialOwner(state: BeneficialOwnerState, event: BeneficialOwnerEvent): BeneficialOwnerState {
  if (event.type === 'BeneficialOwnerAdded.v1') return { status: 'ACTIVE', ...event.data, kycStatus: 'PENDING', updatedAt: event.data.createdAt };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'BeneficialOwnerUpdated.v1': {
      const { personalInfo, ...rest } = event.data.changes;
      return { ...state, ...rest, personalInfo: { ...state.personalInfo, ...personalInfo }, updatedAt: event.data.updatedAt };
    }
    case 'BeneficialOwnerKycStatusChanged.v1':
      return { ...state, kycStatus: event.data.kycStatus, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}
