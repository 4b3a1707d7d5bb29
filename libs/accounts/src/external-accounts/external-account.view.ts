import type { ExternalAccount } from '@payments/contracts';
import { publicAccountInfo } from './rules';
import { ExternalAccountRecord, ExternalAccountState } from './external-account.state';

/** The ExternalAccount resource. */
export function toExternalAccount(state: Exclude<ExternalAccountState, { status: 'NONE' }>): ExternalAccount {
  const r: ExternalAccountRecord = state;
  return {
    id: r.externalAccountId,
    ...(r.customerId ? { customerId: r.customerId } : {}),
    status: state.status,
    currency: r.currency,
    ...(r.platformAccountId ? { platformAccountId: r.platformAccountId } : {}),
    ...(r.ownershipType ? { ownershipType: r.ownershipType } : {}),
    accountInfo: publicAccountInfo(r.accountInfo),
    ...(r.beneficiaryVerificationStatus ? { beneficiaryVerificationStatus: r.beneficiaryVerificationStatus } : {}),
    trustedBeneficiary: r.trusted,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** A stored answer as answered now (the read model keeps answers; older ones lack fields added since). */
export const presentStored = (account: ExternalAccount): ExternalAccount => ({ ...account, accountInfo: publicAccountInfo(account.accountInfo) });
