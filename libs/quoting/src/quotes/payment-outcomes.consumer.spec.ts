import { testEnvelope as envelope, untouchable } from '@payments/testing';
import { QuotingIdentityEventsConsumer } from '../platform-config/identity-events.consumer';
import { PaymentOutcomesConsumer } from './payment-outcomes.consumer';

describe('quoting consumers decode through the declarations', () => {
  it('payment outcomes ignore unknown and internal payments types, and settle quotes from TransactionStatusChanged.v1', async () => {
    const consumer = new PaymentOutcomesConsumer(untouchable('dataSource'), 'quoting', untouchable('quotes'), () => undefined);
    for (const type of ['TransactionStatusChanged.v2', 'TransactionFundsHeld.v1', 'TransactionCompleted.v1', 'Invented.v1']) {
      await expect(consumer.handle(envelope(type, { transaction: { id: 'Transaction:1', quoteId: 'Quote:1', status: 'COMPLETED' } }))).resolves.toBeUndefined();
    }
    const completed = envelope('TransactionStatusChanged.v1', { transaction: { id: 'Transaction:1', quoteId: 'Quote:1', status: 'COMPLETED' }, previousStatus: 'PROCESSING', mode: 'SANDBOX' });
    await expect(consumer.handle(completed)).rejects.toThrow('dataSource.transaction used');
  });

  it('the identity consumer ignores unknown and internal identity types', async () => {
    const consumer = new QuotingIdentityEventsConsumer(untouchable('dataSource'), 'quoting');
    for (const type of ['PlatformConfigUpdated.v7', 'KycLinkIssued.v0', 'ContactVerified.v1', 'Invented.v1']) await expect(consumer.handle(envelope(type))).resolves.toBeUndefined();
    await expect(consumer.handle(envelope('PlatformConfigUpdated.v1', { changes: {} }))).rejects.toThrow('dataSource.transaction used');
  });
});
