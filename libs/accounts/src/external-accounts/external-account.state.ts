import { AccountVerificationMethod, DEFAULT_ACCOUNT_VERIFICATION_METHOD, ExternalAccountStatus } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { ExternalAccountCreated, ExternalAccountEvent } from './external-account.events';

/** What ExternalAccountCreated.v1 records, plus the verification method, the trust state and the last change. */
export type ExternalAccountRecord = Omit<ExternalAccountCreated['data'], 'verificationMethod'> & {
  /** Production: how the account is verified (OPERATOR_APPROVAL for events written before the field); null in the sandbox. */
  verificationMethod: AccountVerificationMethod | null;
  trusted: boolean;
  /** Set while an untrust waits for its confirmation code. */
  untrustExpiresAt: string | null;
  untrustChallengeId?: string | null;
  updatedAt: string;
};

/** A live account is PENDING, ACTIVE, UNDER_REVIEW or UNVERIFIED; a deleted one is INACTIVE for good. */
export type ExternalAccountState =
  | { status: 'NONE' }
  | ({ status: Exclude<ExternalAccountStatus, 'INACTIVE'> } & ExternalAccountRecord)
  | ({ status: 'INACTIVE'; deletedAt: string } & ExternalAccountRecord);

export type LiveExternalAccount = Extract<ExternalAccountState, { status: 'PENDING' | 'ACTIVE' | 'UNDER_REVIEW' | 'UNVERIFIED' }>;

export function evolveExternalAccount(state: ExternalAccountState, event: ExternalAccountEvent): ExternalAccountState {
  if (event.type === 'ExternalAccountCreated.v1') {
    const { verificationMethod, ...data } = event.data;
    return { status: 'PENDING', ...data, verificationMethod: data.sandbox ? null : (verificationMethod ?? DEFAULT_ACCOUNT_VERIFICATION_METHOD), trusted: false, untrustExpiresAt: null, updatedAt: data.createdAt };
  }
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'ExternalAccountStatusChanged.v1':
      if (event.data.status === 'INACTIVE') return { ...state, status: 'INACTIVE', deletedAt: event.data.at, updatedAt: event.data.at };
      return { ...state, status: event.data.status, updatedAt: event.data.at };
    case 'ExternalAccountDeleted.v1':
      return { ...state, status: 'INACTIVE', deletedAt: event.data.at, updatedAt: event.data.at };
    case 'ExternalAccountTrusted.v1':
      return { ...state, trusted: true, untrustExpiresAt: null, updatedAt: event.data.at };
    case 'ExternalAccountUntrustRequested.v1':
      return { ...state, untrustExpiresAt: event.data.expiresAt, untrustChallengeId: event.data.challengeId ?? null };
    case 'ExternalAccountUntrusted.v1':
      return { ...state, trusted: false, untrustExpiresAt: null, updatedAt: event.data.at };
    case 'ExternalAccountRailVerificationRecorded.v1':
      return state; // the status change that follows it moves the account
    default:
      return assertNever(event);
  }
}
