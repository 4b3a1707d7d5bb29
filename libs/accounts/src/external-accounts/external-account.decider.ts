import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import { ExternalAccountCreated, ExternalAccountEvent } from './external-account.events';
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

export type ExternalAccountCommand = CreateExternalAccount | CompleteVerification | DeleteExternalAccount | TrustExternalAccount | BeginUntrust | ConfirmUntrust;

const notFound = () => new DomainError('REFERENCE_NOT_FOUND', 'external account not found');
const live = (state: ExternalAccountState): state is LiveExternalAccount => state.status === 'PENDING' || state.status === 'ACTIVE' || state.status === 'UNDER_REVIEW';

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
