import type { DomainEvent } from '@payments/eventsourcing';
import type { AGENTS_EVENTS, AgentActionPendingApprovalData, AgentActionType, AgentTransferDetails, Catalogued, Mode, Quote, Transaction, TransferInRequest, TransferOutRequest } from '@payments/contracts';

/** What an agent asked for, fixed when it asked. */
export interface ActionTerms {
  actionId: string;
  agentId: string;
  platformId: string;
  mode: Mode;
  customerId: string;
  platformCustomerId: string;
  type: AgentActionType;
  quote?: Quote;
  /** The Service-Wallet-Signature over an Embedded Wallet quote's payloadToSign, kept to execute it on approval. */
  walletSignature?: string;
  transferDetails?: AgentTransferDetails;
  /** The transfer request to run (TRANSFER_IN / TRANSFER_OUT). */
  transfer?: TransferInRequest | TransferOutRequest;
  /** The policy's answer: it waits for the platform. */
  needsApproval: boolean;
  createdAt: string;
}

export type AgentActionSubmitted = DomainEvent<'AgentActionSubmitted.v1', ActionTerms>;
export type AgentActionPendingApproval = DomainEvent<'AgentActionPendingApproval.v1', AgentActionPendingApprovalData>;
export type AgentActionApproved = DomainEvent<'AgentActionApproved.v1', { by: string; at: string }>;
export type AgentActionRejected = DomainEvent<'AgentActionRejected.v1', { by: string; reason?: string; at: string }>;
export type AgentActionExecuted = DomainEvent<'AgentActionExecuted.v1', { transaction: Transaction; quote?: Quote; at: string }>;
/** `transaction`: the operation ran and its transaction failed at once (absent when nothing ran, e.g. an expired quote). */
export type AgentActionFailed = DomainEvent<'AgentActionFailed.v1', { failureReason: string; message: string; transaction?: Transaction; quote?: Quote; at: string }>;

export type AgentActionEvent = AgentActionSubmitted | AgentActionPendingApproval | AgentActionApproved | AgentActionRejected | AgentActionExecuted | AgentActionFailed;

const _declared: Catalogued<typeof AGENTS_EVENTS, AgentActionEvent> = true;
