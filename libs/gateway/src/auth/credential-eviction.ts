import { randomUUID } from 'node:crypto';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic } from '@payments/messaging';
import { CredentialCache } from './credential-cache';

/**
 * Drops a deleted token from this gateway's credential cache when TokenDeleted.v1 arrives, so a token deleted
 * through another gateway instance stops working here too. Each instance is its own consumer group (every
 * instance must see every deletion) and starts at the end of the log: its cache starts empty anyway.
 */
export function evictDeletedTokens(bus: EventBus, cache: CredentialCache): Promise<SubscriptionHandle> {
  return bus.subscribe({
    group: `gateway.credential-cache.${randomUUID()}`,
    topics: [serviceTopic('identity')],
    fromBeginning: false,
    handler: async (envelope) => {
      if (envelope.type !== 'TokenDeleted.v1') return;
      const { clientId } = envelope.data as { clientId?: unknown };
      if (typeof clientId === 'string') cache.forgetClient(clientId);
    },
  });
}
