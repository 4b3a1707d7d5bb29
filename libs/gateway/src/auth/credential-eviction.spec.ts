import type { EventEnvelope } from '@payments/eventsourcing';
import type { EventBus, MessageHandler } from '@payments/messaging';
import type { CredentialCache } from './credential-cache';
import { evictDeletedTokens } from './credential-eviction';

const envelope = (type: string, data: unknown): EventEnvelope => ({ eventId: `e-${type}`, type, streamId: 'Token:1', streamVersion: 1, globalPosition: '1', occurredAt: '2026-01-01T00:00:00.000Z', platformId: 'Platform:1', data, metadata: {} });

describe('credential eviction decodes through the declarations', () => {
  it('forgets a client on TokenDeleted.v1 only: unknown and other types are ignored', async () => {
    let handler: MessageHandler | undefined;
    const bus = { subscribe: async (options: { handler: MessageHandler }) => ((handler = options.handler), { stop: async () => undefined }) } as unknown as EventBus;
    const forgotten: string[] = [];
    await evictDeletedTokens(bus, { forgetClient: (clientId: string) => void forgotten.push(clientId) } as unknown as CredentialCache);
    const context = { topic: 'payments.identity.events.v1', key: 'Token:1', headers: {}, attempt: 1 };
    for (const type of ['TokenDeleted.v2', 'TokenCreated.v1', 'ContactCodeIssued.v1', 'Invented.v1']) await handler!(envelope(type, { clientId: 'c-ignored' }), context);
    await handler!(envelope('TokenDeleted.v1', { clientId: 'c-1', tokenId: 'Token:1' }), context);
    expect(forgotten).toEqual(['c-1']);
  });
});
