import { randomUUID } from 'node:crypto';
import type { EventBus, MessageHandler, SubscriptionHandle } from './event-bus.port';

/**
 * A subscription every running instance needs for itself (evicting its in-memory caches): each instance is its own
 * consumer group, so every instance sees every event, and starts at the end of the log, since its cache starts empty.
 */
export function subscribeThisInstance(bus: Pick<EventBus, 'subscribe'>, name: string, topics: string[], handler: MessageHandler): Promise<SubscriptionHandle> {
  return bus.subscribe({ group: `${name}.${randomUUID()}`, topics, fromBeginning: false, handler });
}
