import { decode, IDENTITY_EVENTS } from '@payments/contracts';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { serviceTopic, subscribeThisInstance } from '@payments/messaging';
import type { PlatformConfigCache } from './platform-config-cache';

const CONFIG_CHANGES = new Set(['PlatformConfigInitialized.v1', 'PlatformConfigUpdated.v1', 'WebhookEndpointDisabled.v1']);

/** Forgets a platform's cached config when another identity replica changed it (its own changes forget at once). */
export function evictChangedConfigs(bus: Pick<EventBus, 'subscribe'>, cache: PlatformConfigCache): Promise<SubscriptionHandle> {
  return subscribeThisInstance(bus, 'identity.config-cache', [serviceTopic('identity')], async (envelope) => {
    const event = decode(IDENTITY_EVENTS, envelope);
    if (event && CONFIG_CHANGES.has(event.type) && envelope.platformId) cache.forget(envelope.platformId);
  });
}
