import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { InvitationEvent } from './invitation.events';
import { InvitationState } from './invitation.state';
import { toInvitation } from './invitation.view';

/** The invitations read model: the API body plus the columns lookups filter on. */
export const projectInvitation: Projection<EntityManager, InvitationState, InvitationEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO invitations (code, platform_id, mode, status, inviter_customer_id, body, created_at, expires_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (code) DO UPDATE SET status = $4, body = $6, updated_at = $9`,
    [state.code, state.platformId, state.mode, state.status, state.inviterCustomerId, JSON.stringify(toInvitation(state)), state.createdAt, state.expiresAt, state.updatedAt],
  );
};
