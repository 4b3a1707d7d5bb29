import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { Mode } from '@payments/contracts';
import { InvitationEvent, InvitationTerms } from './invitation.events';
import { ExistingInvitation, InvitationState } from './invitation.state';
import { toInvitation } from './invitation.view';

/** Opens the invitation; `now` must be before `expiresAt`. */
export interface CreateInvitation {
  type: 'CreateInvitation';
  terms: InvitationTerms;
}

/** Any platform of the invitation's mode may claim (the code was shared with the invitee's platform). */
export interface ClaimInvitation {
  type: 'ClaimInvitation';
  inviteeUma: string;
  platformId: string;
  mode: Mode;
  now: string;
}

/** Only the platform that created the invitation may cancel it. */
export interface CancelInvitation {
  type: 'CancelInvitation';
  platformId: string;
  now: string;
}

/** The expiry timer fired. */
export interface ExpireInvitation {
  type: 'ExpireInvitation';
  now: string;
}

export type InvitationCommand = CreateInvitation | ClaimInvitation | CancelInvitation | ExpireInvitation;

const notFound = () => new DomainError('INVITATION_NOT_FOUND', 'invitation not found');

/** Why a non-PENDING invitation (or one past its expiresAt) cannot be claimed or cancelled. */
function notPending(s: ExistingInvitation, now: string): DomainError | undefined {
  switch (s.status) {
    case 'CLAIMED':
      return new DomainError('INVITATION_ALREADY_CLAIMED', `invitation ${s.code} was already claimed`);
    case 'CANCELLED':
      return new DomainError('INVITATION_CANCELLED', `invitation ${s.code} was cancelled`);
    case 'EXPIRED':
      return expired(s);
    case 'PENDING':
      // The expiry timer may not have fired yet: the deadline itself is the rule.
      return Date.parse(now) >= Date.parse(s.expiresAt) ? expired(s) : undefined;
    default:
      return assertNever(s);
  }
}

const expired = (s: ExistingInvitation) => new DomainError('INVITATION_EXPIRED', `invitation ${s.code} expired at ${s.expiresAt}`, { expiresAt: s.expiresAt });

function create(c: CreateInvitation, state: InvitationState): InvitationEvent[] | DomainError {
  if (state.status !== 'NONE') return new DomainError('CONFLICT', 'an invitation with this code exists');
  if (Date.parse(c.terms.expiresAt) <= Date.parse(c.terms.createdAt)) {
    return new DomainError('INVALID_INPUT', 'expiresAt must be in the future', { errors: [{ field: 'expiresAt', message: 'must be in the future' }] });
  }
  return [{ type: 'InvitationCreated.v1', data: c.terms }];
}

function claim(c: ClaimInvitation, state: InvitationState): InvitationEvent[] | DomainError {
  if (state.status === 'NONE' || state.mode !== c.mode) return notFound();
  const refused = notPending(state, c.now);
  if (refused) return refused;
  if (c.inviteeUma.toLowerCase() === state.inviterUma.toLowerCase()) {
    return new DomainError('SELF_PAYMENT', 'the invitee cannot be the inviter', { errors: [{ field: 'inviteeUma', message: 'is the inviter\'s address' }] });
  }
  const after: ExistingInvitation = { ...state, status: 'CLAIMED', inviteeUma: c.inviteeUma, claimedAt: c.now, claimedByPlatformId: c.platformId, updatedAt: c.now };
  return [
    {
      type: 'InvitationClaimed.v1',
      data: { code: state.code, mode: state.mode, inviteeUma: c.inviteeUma, claimedAt: c.now, claimedByPlatformId: c.platformId, invitation: toInvitation(after) },
    },
  ];
}

function cancel(c: CancelInvitation, state: InvitationState): InvitationEvent[] | DomainError {
  if (state.status === 'NONE') return notFound();
  if (state.platformId !== c.platformId) return new DomainError('FORBIDDEN', 'only the platform that created the invitation can cancel it');
  return notPending(state, c.now) ?? [{ type: 'InvitationCancelled.v1', data: { code: state.code, cancelledAt: c.now } }];
}

function expire(c: ExpireInvitation, state: InvitationState): InvitationEvent[] {
  // Claimed or cancelled first: the timer has nothing left to do.
  if (state.status !== 'PENDING') return [];
  return [{ type: 'InvitationExpired.v1', data: { code: state.code, expiredAt: c.now } }];
}

function evolve(state: InvitationState, event: InvitationEvent): InvitationState {
  switch (event.type) {
    case 'InvitationCreated.v1':
      return { ...event.data, status: 'PENDING', updatedAt: event.data.createdAt };
    case 'InvitationClaimed.v1':
      if (state.status === 'NONE') return state;
      return { ...state, status: 'CLAIMED', inviteeUma: event.data.inviteeUma, claimedAt: event.data.claimedAt, claimedByPlatformId: event.data.claimedByPlatformId, updatedAt: event.data.claimedAt };
    case 'InvitationCancelled.v1':
      return state.status === 'NONE' ? state : { ...state, status: 'CANCELLED', updatedAt: event.data.cancelledAt };
    case 'InvitationExpired.v1':
      return state.status === 'NONE' ? state : { ...state, status: 'EXPIRED', updatedAt: event.data.expiredAt };
    default:
      return assertNever(event);
  }
}

export const invitationDecider: Decider<InvitationState, InvitationCommand, InvitationEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'CreateInvitation':
        return create(command, state);
      case 'ClaimInvitation':
        return claim(command, state);
      case 'CancelInvitation':
        return cancel(command, state);
      case 'ExpireInvitation':
        return expire(command, state);
      default:
        return assertNever(command);
    }
  },
  evolve,
};
