import type { BeneficiaryVerificationStatusValue, ExternalAccountStatus, Mode } from '@payments/contracts';

/** Events of one external account (stream `ExternalAccount:<uuid>`), on the accounts topic. */
export type ExternalAccountCreated = {
  type: 'ExternalAccountCreated.v1';
  data: {
    externalAccountId: string;
    platformId: string;
    mode: Mode;
    /** null for a platform account. */
    customerId: string | null;
    currency: string;
    platformAccountId: string | null;
    accountInfo: Record<string, unknown>;
    /** The beneficiary-name check at creation; null for crypto wallets (no beneficiary). */
    beneficiaryVerificationStatus: BeneficiaryVerificationStatusValue | null;
    /** Sandbox accounts are verified by a timer; production ones wait for a verification provider. */
    sandbox: boolean;
    createdAt: string;
  };
};

export type ExternalAccountStatusChanged = {
  type: 'ExternalAccountStatusChanged.v1';
  data: { status: ExternalAccountStatus; previous: ExternalAccountStatus; reason: 'VERIFIED' | 'BENEFICIARY_REVIEW' | 'DELETED'; at: string };
};

/** Soft delete: the account turns INACTIVE (a StatusChanged precedes it) and disappears from the API. */
export type ExternalAccountDeleted = { type: 'ExternalAccountDeleted.v1'; data: { at: string } };

/** The customer confirmed the account as a trusted beneficiary (SCA exemption). */
export type ExternalAccountTrusted = { type: 'ExternalAccountTrusted.v1'; data: { at: string } };
export type ExternalAccountUntrustRequested = { type: 'ExternalAccountUntrustRequested.v1'; data: { expiresAt: string; at: string } };
export type ExternalAccountUntrusted = { type: 'ExternalAccountUntrusted.v1'; data: { at: string } };

export type ExternalAccountEvent =
  | ExternalAccountCreated
  | ExternalAccountStatusChanged
  | ExternalAccountDeleted
  | ExternalAccountTrusted
  | ExternalAccountUntrustRequested
  | ExternalAccountUntrusted;
