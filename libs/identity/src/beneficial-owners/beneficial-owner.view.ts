import type { BeneficialOwner } from '@payments/contracts';
import { BeneficialOwnerRecord } from './beneficial-owner.state';

/** The BeneficialOwner as the API returns it: the identifier never leaves, only its last four characters. */
export function toBeneficialOwner(state: BeneficialOwnerRecord): BeneficialOwner {
  const { identifier, ...personalInfo } = state.personalInfo;
  return {
    id: state.beneficialOwnerId,
    customerId: state.customerId,
    roles: state.roles,
    ownershipPercentage: state.ownershipPercentage,
    personalInfo: { ...personalInfo, identifierLast4: identifier.replace(/[^A-Za-z0-9]/g, '').slice(-4) },
    kycStatus: state.kycStatus,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}
