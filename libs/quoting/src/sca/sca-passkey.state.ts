import type { Mode } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { ScaPasskeyEnrolled, ScaPasskeyEvent } from './sca-passkey.events';

/** NONE until the first enrolment; REMOVED keeps the owner so a later enrolment of the same customer is checked. */
export type ScaPasskeyState =
  | { status: 'NONE' }
  | ({ status: 'ENROLLED'; lastChallengeId: string | null; updatedAt: string } & ScaPasskeyEnrolled['data'])
  | { status: 'REMOVED'; customerId: string; platformId: string; mode: Mode; updatedAt: string };

export type EnrolledScaPasskey = Extract<ScaPasskeyState, { status: 'ENROLLED' }>;

export function evolveScaPasskey(state: ScaPasskeyState, event: ScaPasskeyEvent): ScaPasskeyState {
  switch (event.type) {
    case 'ScaPasskeyEnrolled.v1':
      return { status: 'ENROLLED', ...event.data, lastChallengeId: null, updatedAt: event.data.enrolledAt };
    case 'ScaPasskeyUsed.v1':
      if (state.status !== 'ENROLLED') return state;
      return { ...state, counter: event.data.counter, lastChallengeId: event.data.challengeId, updatedAt: event.data.at };
    case 'ScaPasskeyRemoved.v1':
      if (state.status !== 'ENROLLED') return state;
      return { status: 'REMOVED', customerId: state.customerId, platformId: state.platformId, mode: state.mode, updatedAt: event.data.at };
    default:
      return assertNever(event);
  }
}
