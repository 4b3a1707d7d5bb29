import { given } from '@payments/eventsourcing';
import { ClaimInvitation, invitationDecider } from './invitation.decider';
import { InvitationEvent, InvitationTerms } from './invitation.events';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:05.000Z';
const EXPIRES = '2026-01-31T00:00:00.000Z';
const AFTER_EXPIRY = '2026-02-01T00:00:00.000Z';

const terms: InvitationTerms = {
  code: 'AbCdEfGhIjKlMnOp', platformId: 'Platform:inviter', mode: 'SANDBOX', inviterCustomerId: 'Customer:1', inviterUma: '$alice@inviter.example',
  firstName: 'Bob', amountToSend: { amount: 1_000, currency: 'USD' }, url: 'http://localhost:3000/invitations/AbCdEfGhIjKlMnOp', createdAt: T0, expiresAt: EXPIRES,
};
const created: InvitationEvent = { type: 'InvitationCreated.v1', data: terms };
const claimBy = (over: Partial<ClaimInvitation> = {}): ClaimInvitation => ({ type: 'ClaimInvitation', inviteeUma: '$bob@invitee.example', platformId: 'Platform:invitee', mode: 'SANDBOX', now: T1, ...over });
const claimed = (): InvitationEvent[] => [created, ...(given(invitationDecider, [created]).when(claimBy()).decision as InvitationEvent[])];
const cancelled: InvitationEvent[] = [created, { type: 'InvitationCancelled.v1', data: { code: terms.code, cancelledAt: T1 } }];
const expired: InvitationEvent[] = [created, { type: 'InvitationExpired.v1', data: { code: terms.code, expiredAt: EXPIRES } }];

describe('invitation decider', () => {
  it('creates a PENDING invitation', () => {
    given(invitationDecider).when({ type: 'CreateInvitation', terms }).then([created]);
    expect(given(invitationDecider, [created]).state).toMatchObject({ status: 'PENDING', code: terms.code });
  });

  it('refuses an expiry that is not after the creation, and a code that exists', () => {
    given(invitationDecider).when({ type: 'CreateInvitation', terms: { ...terms, expiresAt: T0 } }).thenFails('INVALID_INPUT');
    given(invitationDecider, [created]).when({ type: 'CreateInvitation', terms }).thenFails('CONFLICT');
  });

  it('PENDING → CLAIMED by another platform: the event carries the public invitation after the claim', () => {
    given(invitationDecider, [created])
      .when(claimBy())
      .then([
        {
          type: 'InvitationClaimed.v1',
          data: {
            code: terms.code, mode: 'SANDBOX', inviteeUma: '$bob@invitee.example', claimedAt: T1, claimedByPlatformId: 'Platform:invitee',
            invitation: {
              code: terms.code, url: terms.url, status: 'CLAIMED', inviterUma: '$alice@inviter.example', inviteeUma: '$bob@invitee.example', claimedAt: T1, firstName: 'Bob',
              amountToSend: { amount: 1_000, currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 } }, createdAt: T0, expiresAt: EXPIRES,
            },
          },
        },
      ]);
    expect(given(invitationDecider, claimed()).state).toMatchObject({ status: 'CLAIMED', inviteeUma: '$bob@invitee.example', claimedAt: T1 });
  });

  it('refuses to claim twice, a cancelled or expired one, one past its expiresAt, and the inviter\'s own address', () => {
    given(invitationDecider, claimed()).when(claimBy()).thenFails('INVITATION_ALREADY_CLAIMED');
    given(invitationDecider, cancelled).when(claimBy()).thenFails('INVITATION_CANCELLED');
    given(invitationDecider, expired).when(claimBy()).thenFails('INVITATION_EXPIRED');
    given(invitationDecider, [created]).when(claimBy({ now: AFTER_EXPIRY })).thenFails('INVITATION_EXPIRED');
    given(invitationDecider, [created]).when(claimBy({ inviteeUma: '$ALICE@inviter.example' })).thenFails('SELF_PAYMENT');
  });

  it('hides an invitation from the other mode and answers unknown codes as not found', () => {
    given(invitationDecider, [created]).when(claimBy({ mode: 'PRODUCTION' })).thenFails('INVITATION_NOT_FOUND');
    given(invitationDecider).when(claimBy()).thenFails('INVITATION_NOT_FOUND');
    given(invitationDecider).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: T1 }).thenFails('INVITATION_NOT_FOUND');
  });

  it('PENDING → CANCELLED by the creating platform only; nothing else can be cancelled', () => {
    given(invitationDecider, [created]).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: T1 }).then([{ type: 'InvitationCancelled.v1', data: { code: terms.code, cancelledAt: T1 } }]);
    given(invitationDecider, [created]).when({ type: 'CancelInvitation', platformId: 'Platform:invitee', now: T1 }).thenFails('FORBIDDEN');
    given(invitationDecider, claimed()).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: T1 }).thenFails('INVITATION_ALREADY_CLAIMED');
    given(invitationDecider, cancelled).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: T1 }).thenFails('INVITATION_CANCELLED');
    given(invitationDecider, expired).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: T1 }).thenFails('INVITATION_EXPIRED');
    given(invitationDecider, [created]).when({ type: 'CancelInvitation', platformId: 'Platform:inviter', now: AFTER_EXPIRY }).thenFails('INVITATION_EXPIRED');
    expect(given(invitationDecider, cancelled).state.status).toBe('CANCELLED');
  });

  it('PENDING → EXPIRED when the timer fires; a claimed, cancelled or expired one stays as it is', () => {
    given(invitationDecider, [created]).when({ type: 'ExpireInvitation', now: EXPIRES }).then([{ type: 'InvitationExpired.v1', data: { code: terms.code, expiredAt: EXPIRES } }]);
    expect(given(invitationDecider, expired).state.status).toBe('EXPIRED');
    for (const history of [claimed(), cancelled, expired]) given(invitationDecider, history).when({ type: 'ExpireInvitation', now: EXPIRES }).then([]);
  });
});
