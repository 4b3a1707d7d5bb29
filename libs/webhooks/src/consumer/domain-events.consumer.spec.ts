import { testEnvelope as envelope, untouchable } from '@payments/testing';
import { DomainEventsConsumer } from './domain-events.consumer';

describe('webhook dispatcher decodes through the declarations', () => {
  const consumer = () => new DomainEventsConsumer(untouchable('dataSource'), 'webhooks', untouchable('queue'), untouchable('resources'), untouchable('settings'), () => undefined);

  it('ignores unknown and internal types of every source topic without reading settings or resources', async () => {
    const types = ['PlatformConfigUpdated.v9', 'PlatformConfigSomething.v1', 'PostingRecorded.v1', 'TransactionFundsHeld.v1', 'ScaChallengeIssued.v1', 'ContactCodeIssued.v1', 'CardFrozen.v1', 'CardAuthorizationDeclined.v1', 'Invented.v1'];
    for (const type of types) await expect(consumer().handle(envelope(type, { mode: 'SANDBOX' }))).resolves.toBeUndefined();
  });

  it('acts on the public events it maps', async () => {
    const balance = envelope('InternalAccountBalanceChanged.v1', { accountId: 'InternalAccount:1', mode: 'SANDBOX', currency: 'USD' });
    await expect(consumer().handle(balance)).rejects.toThrow('settings.get used');
    const card = envelope('CardTransactionUpdated.v1', { platformId: 'Platform:1', mode: 'SANDBOX', transaction: { type: 'CARD', id: 'CardTransaction:1', status: 'AUTHORIZED' } });
    await expect(consumer().handle(card)).rejects.toThrow('settings.get used');
  });
});
