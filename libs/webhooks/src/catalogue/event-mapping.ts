import { ACCOUNTS_EVENTS, AGENTS_EVENTS, CARDS_EVENTS, decodeAny, IDENTITY_EVENTS, PAYMENTS_EVENTS, PublicEventOf, QUOTING_EVENTS } from '@payments/contracts';
import type { EventEnvelope } from '@payments/eventsourcing';
import { CUSTOMER_KYC_STATUSES, webhookTypes } from './webhook-types';

/** Where a webhook's `data` comes from: the event carries the public view, or it is read from its owner over RPC. */
export type ResourceRef =
  | { kind: 'customer'; customerId: string }
  | { kind: 'verification'; verificationId: string }
  /** `gone`: what to send when the account no longer exists (a deletion is the last status change). */
  | { kind: 'externalAccount'; externalAccountId: string; gone: Record<string, unknown> }
  | { kind: 'internalAccount'; accountId: string; customerId?: string; currency: string }
  | { kind: 'bulkJob'; jobId: string };

export interface MappedWebhook {
  type: string;
  /** False for webhooks the spec says are never retried (INCOMING_PAYMENT.PENDING asks for an in-flow answer). */
  retryable: boolean;
  /** The event's mode when it carries one; else the owner is asked in each mode (ids are unique across modes). */
  mode?: 'SANDBOX' | 'PRODUCTION';
  source: { carried: unknown } | { fetch: ResourceRef };
}

/** The topics the dispatcher reads, by their catalogues (WEBHOOK_SOURCE_TOPICS follows): it sees their public events only. */
export const WEBHOOK_SOURCE_CATALOGUES = [IDENTITY_EVENTS, ACCOUNTS_EVENTS, QUOTING_EVENTS, PAYMENTS_EVENTS, CARDS_EVENTS, AGENTS_EVENTS] as const;

/** A public event of one of the source topics. */
export type SourceEvent = PublicEventOf<(typeof WEBHOOK_SOURCE_CATALOGUES)[number]>;

/** The webhook a domain event stands for, or null when platforms are not told about it (or it is not a known public event). Pure: no I/O. */
export function webhookFor(envelope: EventEnvelope): MappedWebhook | null {
  const event = decodeAny(WEBHOOK_SOURCE_CATALOGUES, envelope);
  if (!event) return null;
  const declared = 'mode' in event.data ? event.data.mode : undefined;
  const mode = declared === 'SANDBOX' || declared === 'PRODUCTION' ? declared : undefined;
  const withMode = (w: Omit<MappedWebhook, 'mode'>): MappedWebhook => (mode ? { ...w, mode } : w);
  switch (event.type) {
    case 'CustomerKycStatusChanged.v1': {
      const { customerType, kycStatus } = event.data;
      if (!isCustomerKycStatus(kycStatus)) return null;
      return withMode({ type: webhookTypes.customer(customerType, kycStatus), retryable: true, source: { fetch: { kind: 'customer', customerId: event.streamId } } });
    }
    case 'VerificationSubmitted.v1':
    case 'VerificationErrorsFound.v1':
    case 'VerificationApproved.v1':
    case 'VerificationRejected.v1':
      return withMode({ type: webhookTypes.verification(verificationStatusOf(event)), retryable: true, source: { fetch: { kind: 'verification', verificationId: event.data.verificationId ?? event.streamId } } });
    case 'ExternalAccountStatusChanged.v1':
      return withMode({
        type: webhookTypes.externalAccountStatus,
        retryable: true,
        source: { fetch: { kind: 'externalAccount', externalAccountId: event.streamId, gone: { id: event.streamId, status: event.data.status, updatedAt: event.data.at } } },
      });
    case 'InternalAccountBalanceChanged.v1':
      return withMode({
        type: webhookTypes.internalAccountBalance,
        retryable: true,
        source: { fetch: { kind: 'internalAccount', accountId: event.data.accountId ?? event.streamId, customerId: event.data.customerId ?? undefined, currency: event.data.currency } },
      });
    case 'CustomerImportJobCompleted.v1':
    case 'CustomerImportJobFailed.v1':
      return withMode({ type: webhookTypes.bulkUpload(event.type === 'CustomerImportJobCompleted.v1' ? 'COMPLETED' : 'FAILED'), retryable: true, source: { fetch: { kind: 'bulkJob', jobId: event.streamId } } });
    case 'TransactionStatusChanged.v1': {
      const { transaction } = event.data;
      if (!transaction?.status) return null;
      const type = webhookTypes.payment(transaction.type, transaction.status);
      return withMode({ type, retryable: type !== 'INCOMING_PAYMENT.PENDING', source: { carried: transaction } });
    }
    case 'InvitationClaimed.v1':
      return withMode({ type: webhookTypes.invitationClaimed, retryable: true, source: { carried: event.data.invitation ?? event.data } });
    // Cards events carry the resource as GET answers it at that moment: the webhook is that view.
    case 'CardStateChanged.v1':
    case 'CardFundingSourcesChanged.v1': {
      const { card } = event.data;
      if (!card) return null;
      return withMode({ type: event.type === 'CardStateChanged.v1' ? webhookTypes.cardStateChange : webhookTypes.cardFundingSourceChange, retryable: true, source: { carried: card } });
    }
    case 'CardTransactionUpdated.v1': {
      const { transaction } = event.data;
      if (!transaction?.status) return null;
      return withMode({ type: webhookTypes.cardTransaction(transaction.status), retryable: true, source: { carried: transaction } });
    }
    case 'AgentActionPendingApproval.v1':
      return withMode({ type: webhookTypes.agentActionPendingApproval, retryable: true, source: { carried: event.data.action } });
    case 'StablecoinOperationUpdated.v1': {
      const { operation } = event.data;
      if (!operation?.status) return null;
      return withMode({ type: webhookTypes.stablecoinOperation(operation.status), retryable: true, source: { carried: operation } });
    }
    // CardAuthorizationDeclined.v1: the published WebhookType enum has no type for a declined authorization.
    // AgentDeleted.v1: for internal teams on the bus; the published enum has no webhook for it.
    default:
      return null;
  }
}

const isCustomerKycStatus = (status: string): status is (typeof CUSTOMER_KYC_STATUSES)[number] => (CUSTOMER_KYC_STATUSES as readonly string[]).includes(status);

function verificationStatusOf(event: Extract<SourceEvent, { type: `Verification${string}` }>): string {
  switch (event.type) {
    case 'VerificationSubmitted.v1':
      return event.data.verificationStatus ?? 'IN_PROGRESS';
    case 'VerificationErrorsFound.v1':
      return 'RESOLVE_ERRORS';
    case 'VerificationApproved.v1':
      return 'APPROVED';
    case 'VerificationRejected.v1':
      return 'REJECTED';
  }
}
