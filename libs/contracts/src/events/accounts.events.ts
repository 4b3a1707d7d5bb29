import type { BeneficiaryVerificationStatusValue, ExternalAccountStatus, OwnershipType } from '../accounts/external-accounts.dto';
import type { AccountVerificationMethod } from '../operator/account-verification.dto';
import type { Mode } from '../rpc/rpc';
import { dataSchema, defineCatalogue, defineEvent, redacting } from './catalogue';
import { operatorActionRecorded } from './operator-action.event';

/** The accounts service's events (topic `payments.accounts.events.v1`): external accounts and internal balances. */

// ---- Public data ---------------------------------------------------------------------------------------------------

/** An external account (stream `ExternalAccount:<uuid>`) was created. Beneficiary document numbers are not published. */
export interface ExternalAccountCreatedData {
  externalAccountId: string;
  platformId: string;
  mode: Mode;
  /** null for a platform account. */
  customerId: string | null;
  currency: string;
  platformAccountId: string | null;
  /** Absent when the request named none (and in events written before the field). */
  ownershipType?: OwnershipType;
  accountInfo: Record<string, unknown>;
  /** The beneficiary-name check at creation; null for crypto wallets (no beneficiary). */
  beneficiaryVerificationStatus: BeneficiaryVerificationStatusValue | null;
  /** Sandbox accounts are verified by a timer; production ones wait for their verification method. */
  sandbox: boolean;
  /**
   * Production: how the account is verified (its currency's method when it was created). Absent in the sandbox, and
   * in production events written before it (read as OPERATOR_APPROVAL, the default).
   */
  verificationMethod?: AccountVerificationMethod;
  createdAt: string;
}

export interface ExternalAccountStatusChangedData {
  status: ExternalAccountStatus;
  previous: ExternalAccountStatus;
  /** VERIFICATION_FAILED: an operator rejected the account, or its payout rail could not verify it (status UNVERIFIED). */
  reason: 'VERIFIED' | 'BENEFICIARY_REVIEW' | 'VERIFICATION_FAILED' | 'DELETED';
  /** Production: which verification decided it (an operator's decision or the payout rail's); absent otherwise. */
  verification?: AccountVerificationMethod;
  at: string;
}

/** Soft delete: the account turns INACTIVE (a StatusChanged precedes it) and disappears from the API. */
export interface ExternalAccountDeletedData {
  at: string;
}

/** The customer confirmed the account as a trusted beneficiary (SCA exemption), or withdrew that. */
export interface ExternalAccountTrustChangedData {
  at: string;
}

/** What moved a balance: the posting, hold or hold closing recorded just before it in the same append. */
export type BalanceChangeCause =
  | { type: 'POSTING'; entryId: string; kind: string; reference: string; amount: number; holdId?: string }
  | { type: 'HOLD_PLACED'; holdId: string; reference: string; amount: number }
  | { type: 'HOLD_CLOSED'; holdId: string; outcome: 'RELEASED' | 'EXPIRED'; amount: number };

/**
 * A CUSTOMER or PLATFORM account's `balance` (available) or `totalBalance` changed; never for SYSTEM accounts.
 * Amounts are integers in the smallest unit of `currency`.
 */
export interface InternalAccountBalanceChangedData {
  accountId: string;
  customerId?: string;
  mode: Mode;
  currency: string;
  balance: number;
  totalBalance: number;
  previousBalance: number;
  previousTotalBalance: number;
  cause: BalanceChangeCause;
  at: string;
}

// ---- Catalogue ----------------------------------------------------------------------------------------------------

const service = 'accounts';

export const ACCOUNTS_EVENTS = defineCatalogue(service, [
  operatorActionRecorded(service),
  defineEvent({
    service,
    name: 'ExternalAccountCreated',
    version: 1,
    visibility: 'public',
    data: dataSchema<ExternalAccountCreatedData>('ExternalAccountCreatedData'),
    publicData: redacting<ExternalAccountCreatedData>('documentNumber'),
    description: 'An external account was created (published without beneficiary document numbers).',
  }),
  defineEvent({ service, name: 'ExternalAccountStatusChanged', version: 1, visibility: 'public', data: dataSchema<ExternalAccountStatusChangedData>('ExternalAccountStatusChangedData'), description: "An external account's status moved." }),
  defineEvent({ service, name: 'ExternalAccountDeleted', version: 1, visibility: 'public', data: dataSchema<ExternalAccountDeletedData>('ExternalAccountDeletedData'), description: 'An external account was deleted.' }),
  defineEvent({ service, name: 'ExternalAccountTrusted', version: 1, visibility: 'public', data: dataSchema<ExternalAccountTrustChangedData>('ExternalAccountTrustChangedData'), description: 'An external account became a trusted beneficiary.' }),
  defineEvent({ service, name: 'ExternalAccountUntrusted', version: 1, visibility: 'public', data: dataSchema<ExternalAccountTrustChangedData>('ExternalAccountTrustChangedData'), description: 'An external account stopped being a trusted beneficiary.' }),
  defineEvent({
    service,
    name: 'InternalAccountBalanceChanged',
    version: 1,
    visibility: 'public',
    data: dataSchema<InternalAccountBalanceChangedData>('InternalAccountBalanceChangedData'),
    description: "A customer's or platform's internal account balance changed.",
  }),
  // Internal: ledger bookkeeping (system accounts, postings, holds), the untrust confirmation step and account settings.
  defineEvent({ service, name: 'ExternalAccountUntrustRequested', version: 1, visibility: 'internal', description: 'Untrusting an account awaits its confirmation code.' }),
  defineEvent({ service, name: 'LedgerAccountOpened', version: 1, visibility: 'internal', description: 'A ledger account (customer, platform or system) was opened.' }),
  defineEvent({ service, name: 'PostingRecorded', version: 1, visibility: 'internal', description: 'One side of a balanced journal entry.' }),
  defineEvent({ service, name: 'HoldPlaced', version: 1, visibility: 'internal', description: 'Funds were reserved on a ledger account.' }),
  defineEvent({ service, name: 'HoldClosed', version: 1, visibility: 'internal', description: 'A hold was captured, released or expired.' }),
  defineEvent({ service, name: 'InternalAccountPrivacyChanged', version: 1, visibility: 'internal', description: "An Embedded Wallet's privacy setting (privateEnabled) changed, signed by a session of the wallet." }),
  defineEvent({ service, name: 'ExternalAccountRailVerificationRecorded', version: 1, visibility: 'internal', description: "A payout rail reported its verification of a production external account (the rail, the outcome, a failure's reason)." }),
  defineEvent({ service, name: 'AccountVerificationMethodSet', version: 1, visibility: 'internal', description: 'An operator set how new production external accounts in a currency are verified.' }),
]);
