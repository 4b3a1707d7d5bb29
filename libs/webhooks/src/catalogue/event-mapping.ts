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

/** The webhook a domain event stands for, or null when platforms are not told about it. Pure: no I/O. */
export function webhookFor(envelope: EventEnvelope): MappedWebhook | null {
  const data = (envelope.data ?? {}) as Record<string, any>;
  const declared = data.mode ?? data.transaction?.mode ?? data.invitation?.mode;
  const mode = declared === 'SANDBOX' || declared === 'PRODUCTION' ? declared : undefined;
  const withMode = (w: Omit<MappedWebhook, 'mode'>): MappedWebhook => (mode ? { ...w, mode } : w);
  switch (envelope.type) {
    case 'CustomerKycStatusChanged.v1':
      if (!CUSTOMER_KYC_STATUSES.includes(data.kycStatus)) return null;
      return withMode({ type: webhookTypes.customer(data.customerType, data.kycStatus), retryable: true, source: { fetch: { kind: 'customer', customerId: envelope.streamId } } });
    case 'VerificationSubmitted.v1':
    case 'VerificationErrorsFound.v1':
    case 'VerificationApproved.v1':
    case 'VerificationRejected.v1':
      return withMode({ type: webhookTypes.verification(verificationStatusOf(envelope.type, data)), retryable: true, source: { fetch: { kind: 'verification', verificationId: data.verificationId ?? envelope.streamId } } });
    case 'ExternalAccountStatusChanged.v1':
      return withMode({
        type: webhookTypes.externalAccountStatus,
        retryable: true,
        source: { fetch: { kind: 'externalAccount', externalAccountId: envelope.streamId, gone: { id: envelope.streamId, status: data.status, updatedAt: data.at } } },
      });
    case 'InternalAccountBalanceChanged.v1':
      return withMode({
        type: webhookTypes.internalAccountBalance,
        retryable: true,
        source: { fetch: { kind: 'internalAccount', accountId: data.accountId ?? envelope.streamId, customerId: data.customerId ?? undefined, currency: data.currency } },
      });
    case 'CustomerImportJobCompleted.v1':
    case 'CustomerImportJobFailed.v1':
      return withMode({ type: webhookTypes.bulkUpload(envelope.type === 'CustomerImportJobCompleted.v1' ? 'COMPLETED' : 'FAILED'), retryable: true, source: { fetch: { kind: 'bulkJob', jobId: envelope.streamId } } });
    case 'TransactionStatusChanged.v1': {
      const transaction = data.transaction as Record<string, any> | undefined;
      if (!transaction?.status) return null;
      const type = webhookTypes.payment(transaction.type, transaction.status);
      return withMode({ type, retryable: type !== 'INCOMING_PAYMENT.PENDING', source: { carried: transaction } });
    }
    case 'InvitationClaimed.v1':
      return withMode({ type: webhookTypes.invitationClaimed, retryable: true, source: { carried: data.invitation ?? data } });
    default:
      return null;
  }
}

function verificationStatusOf(type: string, data: Record<string, any>): string {
  if (type === 'VerificationSubmitted.v1') return data.verificationStatus ?? 'IN_PROGRESS';
  if (type === 'VerificationErrorsFound.v1') return 'RESOLVE_ERRORS';
  return type === 'VerificationApproved.v1' ? 'APPROVED' : 'REJECTED';
}
