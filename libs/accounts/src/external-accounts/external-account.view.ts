import type { ExternalAccount } from '@payments/contracts';
import { usdPaymentRails } from './rules';
import { ExternalAccountRecord, ExternalAccountState } from './external-account.state';

/** Write-only beneficiary fields: kept for the rails, never echoed (identity document numbers). */
const WRITE_ONLY_BENEFICIARY_FIELDS = ['documentNumber'];

export function publicAccountInfo(accountInfo: Record<string, unknown>): Record<string, unknown> {
  const info: Record<string, unknown> = { ...accountInfo };
  const beneficiary = info.beneficiary;
  if (beneficiary && typeof beneficiary === 'object') {
    const copy: Record<string, unknown> = { ...(beneficiary as Record<string, unknown>) };
    for (const field of WRITE_ONLY_BENEFICIARY_FIELDS) delete copy[field];
    info.beneficiary = copy;
  }
  if (info.accountType === 'USD_ACCOUNT') info.paymentRails = usdPaymentRails(accountInfo);
  return info;
}

/** The ExternalAccount resource. */
export function toExternalAccount(state: Exclude<ExternalAccountState, { status: 'NONE' }>): ExternalAccount {
  const r: ExternalAccountRecord = state;
  return {
    id: r.externalAccountId,
    ...(r.customerId ? { customerId: r.customerId } : {}),
    status: state.status,
    currency: r.currency,
    ...(r.platformAccountId ? { platformAccountId: r.platformAccountId } : {}),
    accountInfo: publicAccountInfo(r.accountInfo),
    ...(r.beneficiaryVerificationStatus ? { beneficiaryVerificationStatus: r.beneficiaryVerificationStatus } : {}),
    trustedBeneficiary: r.trusted,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
