import { testEnvelope as envelope, untouchable } from '@payments/testing';
import { QuoteExecution } from '../quote-execution/quote-execution';
import { PaymentsIdentityEventsConsumer } from './identity-events.consumer';

describe('payments consumers decode through the declarations', () => {
  it('the customer directory ignores unknown, internal and unhandled identity types, and handles Customer events', async () => {
    const consumer = new PaymentsIdentityEventsConsumer(untouchable('dataSource'), 'payments');
    for (const type of ['CustomerCreated.v9', 'ContactCodeIssued.v1', 'TokenCreated.v1', 'Invented.v1']) await expect(consumer.handle(envelope(type))).resolves.toBeUndefined();
    await expect(consumer.handle(envelope('CustomerCreated.v1', { customerId: 'Customer:1' }))).rejects.toThrow('dataSource.transaction used');
  });

  it('quote execution ignores everything on the quoting topic but QuoteExecuted.v1', async () => {
    const execution = new QuoteExecution(untouchable('dataSource'), 'payments', untouchable('saga'), untouchable('peers'), 1, untouchable('rails'));
    for (const type of ['QuoteExecuted.v2', 'ScaChallengeIssued.v1', 'QuoteCreated.v1', 'Invented.v1']) await expect(execution.handle(envelope(type))).resolves.toBeUndefined();
    await expect(execution.handle(envelope('QuoteExecuted.v1', { quoteId: 'Quote:1' }))).rejects.toThrow('dataSource.transaction used');
  });
});
