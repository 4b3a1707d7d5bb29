import { decode, IDENTITY_EVENTS } from '@payments/contracts';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic, subscribeThisInstance } from '@payments/messaging';
import { CredentialCache } from './credential-cache';

/**
 * Drops a deleted token from this gateway's credential cache when TokenDeleted.v1 arrives, so a token deleted
 * through another gateway instance stops working here too.
 */
export function evictDeletedTokens(bus: EventBus, cache: CredentialCache): Promise<SubscriptionHandle> {
  return subscribeThisInstance(bus, 'gateway.credential-cache', [serviceTopic('identity')], async (envelope) => {
    const event = decode(IDENTITY_EVENTS, envelope);
    if (event?.type !== 'TokenDeleted.v1') return; // unknown, internal or not ours
    if (typeof event.data.clientId === 'string') cache.forgetClient(event.data.clientId);
  });
}
