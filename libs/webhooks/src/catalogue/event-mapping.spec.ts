import type { EventEnvelope } from '@payments/eventsourcing';
import { webhookFor } from './event-mapping';

const envelope = (type: string, data: unknown, streamId = 'Customer:1'): EventEnvelope => ({ eventId: 'e', type, streamId, streamVersion: 1, globalPosition: '1', occurredAt: '2026-01-01T00:00:00.000Z', platformId: 'Platform:1', data, metadata: {} });

describe('webhookFor (domain event → webhook type and data source)', () => {
  it('maps customer KYC/KYB transitions to CUSTOMER.* and reads the customer', () => {
    expect(webhookFor(envelope('CustomerKycStatusChanged.v1', { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' }))).toEqual({
      type: 'CUSTOMER.KYC_APPROVED',
      retryable: true,
      source: { fetch: { kind: 'customer', customerId: 'Customer:1' } },
    });
    expect(webhookFor(envelope('CustomerKycStatusChanged.v1', { customerType: 'BUSINESS', kycStatus: 'PENDING' }))?.type).toBe('CUSTOMER.KYB_PENDING');
    expect(webhookFor(envelope('CustomerKycStatusChanged.v1', { customerType: 'INDIVIDUAL', kycStatus: 'UNVERIFIED' }))).toBeNull();
  });

  it('maps verifications, accounts and bulk uploads; carries the mode when the event has one', () => {
    expect(webhookFor(envelope('VerificationSubmitted.v1', { verificationId: 'Verification:1', verificationStatus: 'PENDING_MANUAL_REVIEW', mode: 'PRODUCTION' }))).toMatchObject({ type: 'VERIFICATION.PENDING_MANUAL_REVIEW', mode: 'PRODUCTION' });
    expect(webhookFor(envelope('VerificationErrorsFound.v1', { verificationId: 'Verification:1' }))?.type).toBe('VERIFICATION.RESOLVE_ERRORS');
    expect(webhookFor(envelope('ExternalAccountStatusChanged.v1', { status: 'ACTIVE' }, 'ExternalAccount:1'))?.type).toBe('EXTERNAL_ACCOUNT.STATUS_UPDATED');
    expect(webhookFor(envelope('InternalAccountBalanceChanged.v1', { accountId: 'InternalAccount:1', mode: 'SANDBOX', currency: 'USD', customerId: 'Customer:1' }))).toMatchObject({
      type: 'INTERNAL_ACCOUNT.BALANCE_UPDATED',
      mode: 'SANDBOX',
      source: { fetch: { kind: 'internalAccount', accountId: 'InternalAccount:1', customerId: 'Customer:1', currency: 'USD' } },
    });
    expect(webhookFor(envelope('CustomerImportJobFailed.v1', {}, 'Job:1'))?.type).toBe('BULK_UPLOAD.FAILED');
  });

  it('sends the transaction a payment event carries; INCOMING_PAYMENT.PENDING is never retried', () => {
    const transaction = { id: 'Transaction:1', type: 'OUTGOING', status: 'COMPLETED' };
    expect(webhookFor(envelope('TransactionStatusChanged.v1', { transaction, previousStatus: 'PROCESSING', mode: 'SANDBOX' }))).toEqual({ type: 'OUTGOING_PAYMENT.COMPLETED', retryable: true, mode: 'SANDBOX', source: { carried: transaction } });
    expect(webhookFor(envelope('TransactionStatusChanged.v1', { transaction: { ...transaction, type: 'INCOMING', status: 'PENDING' } }))).toMatchObject({ type: 'INCOMING_PAYMENT.PENDING', retryable: false });
    expect(webhookFor(envelope('InvitationClaimed.v1', { invitation: { code: 'abc' } }))).toMatchObject({ type: 'INVITATION_CLAIMED', source: { carried: { code: 'abc' } } });
  });

  it('ignores events platforms are not told about', () => {
    expect(webhookFor(envelope('TokenCreated.v1', {}))).toBeNull();
    expect(webhookFor(envelope('PostingRecorded.v1', {}))).toBeNull();
  });
});
