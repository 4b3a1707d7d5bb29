import type { InvitationTerms } from './invitation.events';

export type ExistingInvitation = InvitationTerms &
  (
    | { status: 'PENDING' | 'EXPIRED' | 'CANCELLED'; updatedAt: string }
    | { status: 'CLAIMED'; inviteeUma: string; claimedAt: string; claimedByPlatformId: string; updatedAt: string }
  );

export type InvitationState = { status: 'NONE' } | ExistingInvitation;
