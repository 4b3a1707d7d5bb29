import type { Mode } from '@payments/contracts';
import { assertNever, Decider, Decision, DomainError } from '@payments/eventsourcing';
import { ScaPasskeyEnrolled, ScaPasskeyEvent } from './sca-passkey.events';
import { evolveScaPasskey, ScaPasskeyState } from './sca-passkey.state';

interface Owner {
  platformId: string;
  mode: Mode;
}
/** Carries what ScaPasskeyEnrolled.v1 records; the registration was verified by the service (WebAuthn needs crypto). */
export type EnrolScaPasskey = { type: 'EnrolScaPasskey'; now: string } & Omit<ScaPasskeyEnrolled['data'], 'enrolledAt'>;
/** A verified assertion: its counter and the challenge it answered. */
export type RecordScaPasskeyUse = { type: 'RecordScaPasskeyUse'; passkeyId: string; challengeId: string; counter: number; now: string } & Owner;
export type RemoveScaPasskey = { type: 'RemoveScaPasskey'; now: string } & Owner;

export type ScaPasskeyCommand = EnrolScaPasskey | RecordScaPasskeyUse | RemoveScaPasskey;

const notFound = () => new DomainError('NOT_FOUND', 'no SCA passkey is enrolled for this customer');
const failed = (message: string) => new DomainError('SCA_AUTHORIZATION_FAILED', message, { errors: [{ field: 'passkeyAssertion', message }] });
/** The stream is per customer id: another tenant's state there is answered like no state at all. */
const owns = (state: ScaPasskeyState, owner: Owner) => state.status !== 'NONE' && state.platformId === owner.platformId && state.mode === owner.mode;

function decide(command: ScaPasskeyCommand, state: ScaPasskeyState): Decision<ScaPasskeyEvent> {
  switch (command.type) {
    case 'EnrolScaPasskey': {
      if (state.status !== 'NONE' && !owns(state, command)) return new DomainError('NOT_FOUND', 'customer not found');
      if (state.status === 'ENROLLED') return new DomainError('PASSKEY_ALREADY_ENROLLED', 'the customer already has an SCA passkey: delete it first');
      const { type: _t, now, ...data } = command;
      return [{ type: 'ScaPasskeyEnrolled.v1', data: { ...data, enrolledAt: now } }];
    }
    case 'RecordScaPasskeyUse':
      if (state.status !== 'ENROLLED' || !owns(state, command)) return notFound();
      // Removed and enrolled again between the check and now: the assertion was for the old credential.
      if (state.passkeyId !== command.passkeyId) return failed('the passkey changed during the authorization');
      if (state.lastChallengeId === command.challengeId) return failed('this challenge was already answered with the passkey');
      // Authenticators without a counter report 0 forever; once one counts, each use must count up (replays do not).
      if ((command.counter > 0 || state.counter > 0) && command.counter <= state.counter) {
        return failed(`the signature counter did not increase (${command.counter} after ${state.counter}): a replayed or cloned authenticator`);
      }
      return [{ type: 'ScaPasskeyUsed.v1', data: { passkeyId: state.passkeyId, challengeId: command.challengeId, counter: command.counter, at: command.now } }];
    case 'RemoveScaPasskey':
      if (state.status !== 'ENROLLED' || !owns(state, command)) return notFound();
      return [{ type: 'ScaPasskeyRemoved.v1', data: { passkeyId: state.passkeyId, at: command.now } }];
    default:
      return assertNever(command);
  }
}

export const scaPasskeyDecider: Decider<ScaPasskeyState, ScaPasskeyCommand, ScaPasskeyEvent> = {
  initialState: { status: 'NONE' },
  decide,
  evolve: evolveScaPasskey,
};
