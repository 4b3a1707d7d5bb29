import type { AccountVerificationMethod } from '@payments/contracts';
import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import { ExternalAccountCreated, ExternalAccountEvent, ExternalAccountStatusChanged } from './external-account.events';
import { verifiedStatus } from './external-account.rules';
import { evolveExternalAccount, ExternalAccountState, LiveExternalAccount } from './external-account.state';

/** The creation carries exactly what ExternalAccountCreated.v1 records (accountInfo already validated by the service). */
export type CreateExternalAccount = { type: 'CreateExternalAccount'; now: string } & Omit<ExternalAccountCreated['data'], 'createdAt'>;
/** Fired by the sandbox verification timer. */
export type CompleteVerification = { type: 'CompleteVerification'; now: string };
export type DeleteExternalAccount = { type: 'DeleteExternalAccount'; now: string };
export type TrustExternalAccount = { type: 'TrustExternalAccount'; now: string };
export type BeginUntrust = { type: 'BeginUntrust'; challengeId: string; expiresAt: string; now: string };
/** `codeMatches` is decided by the service (the sandbox code, later the SCA service): no secrets in the decider. */
/** `challengeId`: the one the client names, when it names one (it must be the open challenge's). */
export type ConfirmUntrust = { type: 'ConfirmUntrust'; codeMatches: boolean; challengeId?: string; now: string };

/** A REVIEWER operator's decision on a production account whose method is OPERATOR_APPROVAL (who and why: the audit record). */
export type DecideExternalAccount = { type: 'DecideExternalAccount'; outcome: VerificationOutcome; now: string };
/** A payout rail's verification of a production account whose method is PAYOUT_RAIL (AccountsRpc.recordRailVerification). */
export type RecordRailVerification = { type: 'RecordRailVerification'; outcome: VerificationOutcome; rail: string; reason?: string; now: string };
export type VerificationOutcome = 'VERIFIED' | 'FAILED';

export type ExternalAccountCommand =
  | CreateExternalAccount
  | CompleteVerification
  | DeleteExternalAccount
  | TrustExternalAccount
  | BeginUntrust
  | ConfirmUntrust
  | DecideExternalAccount
  | RecordRailVerification;

const notFound = () => new DomainError('REFERENCE_NOT_FOUND', 'external account not found');
const live = (state: ExternalAccountState): state is LiveExternalAccount =>
  state.status === 'PENDING' || state.status === 'ACTIVE' || state.status === 'UNDER_REVIEW' || state.status === 'UNVERIFIED';

function decide(command: ExternalAccountCommand, state: ExternalAccountState): Decision<ExternalAccountEvent> {
  if (command.type === 'CreateExternalAccount') return create(command, state);
  if (!live(state)) return command.type === 'CompleteVerification' ? [] : notFound();
  switch (command.type) {
    case 'CompleteVerification':
      return completeVerification(command, state);
    case 'DeleteExternalAccount':
      if (state.trusted) return new DomainError('BENEFICIARY_TRUSTED', 'the account is a trusted beneficiary: untrust it before deleting it');
      return [
        { type: 'ExternalAccountStatusChanged.v1', data: { status: 'INACTIVE', previous: state.status, reason: 'DELETED', at: command.now } },
        { type: 'ExternalAccountDeleted.v1', data: { at: command.now } },
      ];
    case 'TrustExternalAccount':
      return state.trusted ? [] : [{ type: 'ExternalAccountTrusted.v1', data: { at: command.now } }];
    case 'BeginUntrust':
      if (!state.trusted) return notTrusted();
      return [{ type: 'ExternalAccountUntrustRequested.v1', data: { challengeId: command.challengeId, expiresAt: command.expiresAt, at: command.now } }];
    case 'ConfirmUntrust':
      return confirmUntrust(command, state);
    case 'DecideExternalAccount':
      return decideByOperator(command, state);
    case 'RecordRailVerification':
      return recordRailVerification(command, state);
    default:
      return assertNever(command);
  }
}

function create(command: CreateExternalAccount, state: ExternalAccountState): Decision<ExternalAccountEvent> {
  if (state.status !== 'NONE') return new DomainError('CONFLICT', 'external account already exists');
  const { type: _t, now, ...data } = command;
  return [{ type: 'ExternalAccountCreated.v1', data: { ...data, createdAt: now } }];
}

/** Only a PENDING sandbox account moves; a repeat, a production account or a deleted one is left alone. */
function completeVerification(command: CompleteVerification, state: LiveExternalAccount): Decision<ExternalAccountEvent> {
  if (state.status !== 'PENDING' || !state.sandbox) return [];
  const status = verifiedStatus(state.beneficiaryVerificationStatus);
  if (status === 'PENDING' || status === 'INACTIVE') return [];
  return [{ type: 'ExternalAccountStatusChanged.v1', data: { status, previous: 'PENDING', reason: status === 'ACTIVE' ? 'VERIFIED' : 'BENEFICIARY_REVIEW', at: command.now } }];
}

/** Awaiting its verification: a production account not verified yet (UNDER_REVIEW too: a person must look). */
const awaitingVerification = (state: LiveExternalAccount): boolean => !state.sandbox && (state.status === 'PENDING' || state.status === 'UNDER_REVIEW');

/** The status change a production verification makes: ACTIVE (it can receive) or the published UNVERIFIED. */
function verificationDecided(state: LiveExternalAccount, outcome: VerificationOutcome, method: AccountVerificationMethod, now: string): ExternalAccountStatusChanged {
  const status = outcome === 'VERIFIED' ? 'ACTIVE' : 'UNVERIFIED';
  return { type: 'ExternalAccountStatusChanged.v1', data: { status, previous: state.status, reason: outcome === 'VERIFIED' ? 'VERIFIED' : 'VERIFICATION_FAILED', verification: method, at: now } };
}

/** Once only: a second decision (even the same one) is a conflict, never a second status change or audit record. */
function decideByOperator(command: DecideExternalAccount, state: LiveExternalAccount): Decision<ExternalAccountEvent> {
  if (state.sandbox) return notFound(); // the sandbox's own rules verify its accounts; operators never see them
  if (state.verificationMethod !== 'OPERATOR_APPROVAL') return new DomainError('CONFLICT', `the account waits for its payout rail's verification (${state.verificationMethod}), not an operator's decision`);
  if (!awaitingVerification(state)) return new DomainError('CONFLICT', `the account was already decided: it is ${state.status}`);
  return [verificationDecided(state, command.outcome, 'OPERATOR_APPROVAL', command.now)];
}

/** A rail may report again (redelivery): the outcome already recorded appends nothing; another one is a conflict. */
function recordRailVerification(command: RecordRailVerification, state: LiveExternalAccount): Decision<ExternalAccountEvent> {
  if (state.sandbox || state.verificationMethod !== 'PAYOUT_RAIL') return new DomainError('CONFLICT', 'the account is not waiting for a payout rail\'s verification');
  if (!awaitingVerification(state)) {
    const recorded = command.outcome === 'VERIFIED' ? 'ACTIVE' : 'UNVERIFIED';
    return state.status === recorded ? [] : new DomainError('CONFLICT', `the account's verification was already recorded: it is ${state.status}`);
  }
  const { rail, outcome, reason, now } = command;
  return [
    { type: 'ExternalAccountRailVerificationRecorded.v1', data: { rail, outcome, ...(reason !== undefined ? { reason } : {}), at: now } },
    verificationDecided(state, outcome, 'PAYOUT_RAIL', now),
  ];
}

function confirmUntrust(command: ConfirmUntrust, state: LiveExternalAccount): Decision<ExternalAccountEvent> {
  if (!state.trusted) return notTrusted();
  if (!state.untrustExpiresAt || state.untrustExpiresAt <= command.now) return new DomainError('CONFLICT', 'no untrust is waiting for confirmation: start one with POST .../untrust');
  if (command.challengeId !== undefined && command.challengeId !== state.untrustChallengeId) {
    return new DomainError('INVALID_INPUT', 'challengeId is not the open untrust challenge', { errors: [{ field: 'challengeId', message: 'send the id of the scaChallenge the last untrust answered' }] });
  }
  if (!command.codeMatches) return new DomainError('INVALID_INPUT', 'the code is not correct', { errors: [{ field: 'code', message: 'wrong code' }] });
  return [{ type: 'ExternalAccountUntrusted.v1', data: { at: command.now } }];
}

const notTrusted = () => new DomainError('CONFLICT', 'the account is not a trusted beneficiary');

export const externalAccountDecider: Decider<ExternalAccountState, ExternalAccountCommand, ExternalAccountEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve: evolveExternalAccount,
};
