import { testEnvelope as envelope, untouchable } from '@payments/testing';
import { IdentityEventsConsumer } from './identity-events.consumer';

describe('accounts identity consumer decodes through the declarations', () => {
  it('ignores unknown, internal and unhandled identity types, and handles CustomerCreated.v1', async () => {
    const consumer = new IdentityEventsConsumer(untouchable('dataSource'), untouchable('accounts'), 'accounts');
    for (const type of ['CustomerCreated.v2', 'ContactCodeIssued.v1', 'CustomerUpdated.v1', 'Invented.v1']) await expect(consumer.handle(envelope(type))).resolves.toBeUndefined();
    await expect(consumer.handle(envelope('CustomerCreated.v1', { customerId: 'Customer:1' }))).rejects.toThrow('dataSource.transaction used');
  });
});
