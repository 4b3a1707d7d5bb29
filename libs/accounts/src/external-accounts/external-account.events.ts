import type {
  ACCOUNTS_EVENTS,
  Catalogued,
  ExternalAccountCreatedData,
  ExternalAccountDeletedData,
  ExternalAccountStatusChangedData,
  ExternalAccountTrustChangedData,
} from '@payments/contracts';

/**
 * Events of one external account (stream `ExternalAccount:<uuid>`), on the accounts topic. Their public data is
 * declared in libs/contracts (ACCOUNTS_EVENTS); beneficiary document numbers in `accountInfo` stay in the log.
 */
export type ExternalAccountCreated = { type: 'ExternalAccountCreated.v1'; data: ExternalAccountCreatedData };

export type ExternalAccountStatusChanged = { type: 'ExternalAccountStatusChanged.v1'; data: ExternalAccountStatusChangedData };

/** Soft delete: the account turns INACTIVE (a StatusChanged precedes it) and disappears from the API. */
export type ExternalAccountDeleted = { type: 'ExternalAccountDeleted.v1'; data: ExternalAccountDeletedData };

/** The customer confirmed the account as a trusted beneficiary (SCA exemption). */
export type ExternalAccountTrusted = { type: 'ExternalAccountTrusted.v1'; data: ExternalAccountTrustChangedData };
/** Internal: the untrust step awaiting its confirmation code. */
/** `challengeId` since the published scaChallenge (absent in events written before it). */
export type ExternalAccountUntrustRequested = { type: 'ExternalAccountUntrustRequested.v1'; data: { challengeId?: string; expiresAt: string; at: string } };
export type ExternalAccountUntrusted = { type: 'ExternalAccountUntrusted.v1'; data: ExternalAccountTrustChangedData };
/**
 * Internal: what a payout rail reported (AccountsRpc.recordRailVerification), appended before the status change it
 * causes; the rail and a failure's reason stay in the log, the public StatusChanged says only VERIFIED or not.
 */
export type ExternalAccountRailVerificationRecorded = {
  type: 'ExternalAccountRailVerificationRecorded.v1';
  data: { rail: string; outcome: 'VERIFIED' | 'FAILED'; reason?: string; at: string };
};

export type ExternalAccountEvent =
  | ExternalAccountCreated
  | ExternalAccountStatusChanged
  | ExternalAccountDeleted
  | ExternalAccountTrusted
  | ExternalAccountUntrustRequested
  | ExternalAccountUntrusted
  | ExternalAccountRailVerificationRecorded;

/** Every event of the stream is declared in the accounts catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof ACCOUNTS_EVENTS, ExternalAccountEvent> = true;
