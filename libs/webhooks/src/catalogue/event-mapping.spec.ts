import type { EventEnvelope } from '@payments/eventsourcing';
import { WEBHOOK_SOURCE_TOPICS } from '../consumer/domain-events.consumer';
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

  it('sends the card a card event carries: card.state_change and card.funding_source_change (the seed\'s spelling)', () => {
    const card = { id: 'Card:1', cardholderId: 'Customer:1', state: 'FROZEN', stateReason: null, form: 'VIRTUAL', fundingSources: ['InternalAccount:1'], maxSpendPerTransaction: null, createdAt: 'x', updatedAt: 'y' };
    const data = { platformId: 'Platform:1', mode: 'SANDBOX', card };
    expect(webhookFor(envelope('CardStateChanged.v1', data, 'Card:1'))).toEqual({ type: 'card.state_change', retryable: true, mode: 'SANDBOX', source: { carried: card } });
    expect(webhookFor(envelope('CardFundingSourcesChanged.v1', { ...data, mode: 'PRODUCTION' }, 'Card:1'))).toEqual({
      type: 'card.funding_source_change',
      retryable: true,
      mode: 'PRODUCTION',
      source: { carried: card },
    });
    expect(webhookFor(envelope('CardStateChanged.v1', { platformId: 'Platform:1', mode: 'SANDBOX' }, 'Card:1'))).toBeNull();
  });

  it.each(['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'])('sends CARD_TRANSACTION.%s with the transaction the event carries, retried', (status) => {
    const transaction = { type: 'CARD', id: 'CardTransaction:1', status, direction: 'DEBIT', accountId: 'InternalAccount:1', updatedAt: 'y' };
    expect(webhookFor(envelope('CardTransactionUpdated.v1', { platformId: 'Platform:1', mode: 'SANDBOX', transaction }, 'CardTransaction:1'))).toEqual({
      type: `CARD_TRANSACTION.${status}`,
      retryable: true,
      mode: 'SANDBOX',
      source: { carried: transaction },
    });
  });

  it('a card transaction update that keeps its status (a partial refund) is sent again with the same type', () => {
    const settled = { type: 'CARD', id: 'CardTransaction:1', status: 'SETTLED', refundedAmount: { amount: 100, currency: { code: 'USD' } } };
    expect(webhookFor(envelope('CardTransactionUpdated.v1', { platformId: 'Platform:1', mode: 'SANDBOX', transaction: settled }, 'CardTransaction:1'))).toMatchObject({ type: 'CARD_TRANSACTION.SETTLED', source: { carried: settled } });
  });

  it('sends no webhook for a declined card authorization, nor for the cards service\'s internal events', () => {
    const declined = { platformId: 'Platform:1', mode: 'SANDBOX', cardId: 'Card:1', customerId: 'Customer:1', reason: 'CARD_PAUSED', amount: 100, currency: 'USD', merchant: { descriptor: 'M' } };
    expect(webhookFor(envelope('CardAuthorizationDeclined.v1', declined, 'Card:1'))).toBeNull();
    expect(webhookFor(envelope('CardFrozen.v1', { mode: 'SANDBOX' }, 'Card:1'))).toBeNull();
    expect(webhookFor(envelope('CardTransactionAuthorized.v1', { mode: 'SANDBOX' }, 'CardTransaction:1'))).toBeNull();
  });

  it('ignores events platforms are not told about', () => {
    expect(webhookFor(envelope('TokenCreated.v1', {}))).toBeNull();
    expect(webhookFor(envelope('PostingRecorded.v1', {}))).toBeNull();
  });

  it('an agent action waiting for approval is AGENT_ACTION.PENDING_APPROVAL with the action; a deleted agent sends nothing', () => {
    const action = { id: 'AgentAction:1', agentId: 'Agent:1', status: 'PENDING_APPROVAL', type: 'TRANSFER_OUT' };
    expect(webhookFor(envelope('AgentActionPendingApproval.v1', { platformId: 'Platform:1', mode: 'SANDBOX', action }, 'AgentAction:1'))).toMatchObject({ type: 'AGENT_ACTION.PENDING_APPROVAL', retryable: true, mode: 'SANDBOX', source: { carried: action } });
    expect(webhookFor(envelope('AgentDeleted.v1', { agentId: 'Agent:1', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:1', at: 'x' }, 'Agent:1'))).toBeNull();
  });

  it('the dispatcher subscribes to the cards and agents topics with the others', () => {
    expect(WEBHOOK_SOURCE_TOPICS).toEqual(['payments.identity.events.v1', 'payments.accounts.events.v1', 'payments.quoting.events.v1', 'payments.payments.events.v1', 'payments.cards.events.v1', 'payments.agents.events.v1']);
  });
});
