import type { DomainEvent } from '@payments/eventsourcing';
import type { Catalogued, InvitationClaimedData, Mode, PAYMENTS_EVENTS } from '@payments/contracts';

/** What an invitation fixes at creation. `amountToSend` is in the smallest unit of `currency`. */
export interface InvitationTerms {
  code: string;
  platformId: string;
  mode: Mode;
  /** The inviter: a customer of `platformId`, and its UMA address (lower case). */
  inviterCustomerId: string;
  inviterUma: string;
  firstName: string | null;
  amountToSend: { amount: number; currency: string } | null;
  url: string;
  createdAt: string;
  expiresAt: string;
}

export type InvitationCreated = DomainEvent<'InvitationCreated.v1', InvitationTerms>;
/** The public contract (libs/contracts): carries the UmaInvitation after the claim, for the inviting platform's webhook. */
export type InvitationClaimed = DomainEvent<'InvitationClaimed.v1', InvitationClaimedData>;
export type InvitationCancelled = DomainEvent<'InvitationCancelled.v1', { code: string; cancelledAt: string }>;
export type InvitationExpired = DomainEvent<'InvitationExpired.v1', { code: string; expiredAt: string }>;

export type InvitationEvent = InvitationCreated | InvitationClaimed | InvitationCancelled | InvitationExpired;

/** Every event of the stream is declared in the payments catalogue (only InvitationClaimed.v1 is public). */
const _declared: Catalogued<typeof PAYMENTS_EVENTS, InvitationEvent> = true;
