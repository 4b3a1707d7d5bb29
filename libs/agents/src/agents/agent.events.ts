import type { DomainEvent } from '@payments/eventsourcing';
import type { AGENTS_EVENTS, AgentDeletedData, AgentPolicy, Catalogued, Mode } from '@payments/contracts';

export interface AgentTerms {
  agentId: string;
  platformId: string;
  mode: Mode;
  customerId: string;
  platformCustomerId: string;
  name: string;
  policy: AgentPolicy;
  createdAt: string;
}

/** One action's share of the allowance, in the limits currency, on the UTC day and month it was taken. */
export interface SpendReservation {
  actionId: string;
  amount: number;
  day: string;
  month: string;
}

export type AgentCreated = DomainEvent<'AgentCreated.v1', AgentTerms>;
export type AgentRenamed = DomainEvent<'AgentRenamed.v1', { name: string; at: string }>;
export type AgentPaused = DomainEvent<'AgentPaused.v1', { at: string }>;
export type AgentResumed = DomainEvent<'AgentResumed.v1', { at: string }>;
export type AgentPolicyUpdated = DomainEvent<'AgentPolicyUpdated.v1', { policy: AgentPolicy; at: string }>;
export type AgentDeleted = DomainEvent<'AgentDeleted.v1', AgentDeletedData>;
/** `codeHash`: keyed hash of the code (the code itself is shown once, in the answer). */
export type AgentDeviceCodeIssued = DomainEvent<'AgentDeviceCodeIssued.v1', { codeHash: string; expiresAt: string; at: string }>;
/** `tokenId` and `expiresAt` since tokens expire and are revoked one by one (absent on older events: see the projection). */
export type AgentConnected = DomainEvent<'AgentConnected.v1', { codeHash: string; tokenHash: string; tokenId?: string; expiresAt?: string; at: string }>;
export type AgentAccessTokenRevoked = DomainEvent<'AgentAccessTokenRevoked.v1', { tokenId: string; at: string }>;
export type AgentSpendReserved = DomainEvent<'AgentSpendReserved.v1', SpendReservation & { at: string }>;
export type AgentSpendReleased = DomainEvent<'AgentSpendReleased.v1', { actionId: string; at: string }>;

export type AgentEvent =
  | AgentCreated
  | AgentRenamed
  | AgentPaused
  | AgentResumed
  | AgentPolicyUpdated
  | AgentDeleted
  | AgentDeviceCodeIssued
  | AgentConnected
  | AgentAccessTokenRevoked
  | AgentSpendReserved
  | AgentSpendReleased;

const _declared: Catalogued<typeof AGENTS_EVENTS, AgentEvent> = true;
