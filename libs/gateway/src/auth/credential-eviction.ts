import { randomUUID } from 'node:crypto';
import { decode, IDENTITY_EVENTS } from '@payments/contracts';
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
      const event = decode(IDENTITY_EVENTS, envelope);
      if (event?.type !== 'TokenDeleted.v1') return; // unknown, internal or not ours
      if (typeof event.data.clientId === 'string') cache.forgetClient(event.data.clientId);
    },
  });
}
