import type { EventEnvelope } from '@payments/eventsourcing';
import type { ConsumerBacklog, EventBus, SubscriptionHandle, SubscriptionOptions } from './event-bus.port';

/**
 * Several deployments on one Kafka cluster (staging next to production, or parallel test runs): every topic and
 * consumer group gets the deployment's prefix (BUS_NAMESPACE), so they never read each other's events or share
 * group offsets. Handlers still see the plain topic names.
 */
export function namespacedEventBus(bus: EventBus, namespace: string): EventBus {
  if (!namespace) return bus;
  const outward = (topic: string) => `${namespace}${topic}`;
  const inward = (topic: string) => (topic.startsWith(namespace) ? topic.slice(namespace.length) : topic);
  return {
    publish: (topic: string, envelopes: readonly EventEnvelope[]) => bus.publish(outward(topic), envelopes),
    ensureTopics: (topics, partitions) => bus.ensureTopics(topics.map(outward), partitions),
    subscribe: (options: SubscriptionOptions): Promise<SubscriptionHandle> =>
      bus.subscribe({
        ...options,
        group: outward(options.group),
        topics: options.topics.map(outward),
        handler: (envelope, context) => options.handler(envelope, { ...context, topic: inward(context.topic) }),
      }),
    publishedEventIds: (topic) => bus.publishedEventIds(outward(topic)),
    deadLetters: async (topic) =>
      (await bus.deadLetters(outward(topic))).map((d) => ({ ...d, source: { ...d.source, topic: inward(d.source.topic), group: inward(d.source.group) } })),
    consumerBacklog: async (groupPrefix): Promise<ConsumerBacklog> => {
      const { consumers, deadLetters } = await bus.consumerBacklog(outward(groupPrefix));
      return {
        consumers: consumers.map((c) => ({ ...c, group: inward(c.group), topic: inward(c.topic) })),
        deadLetters: deadLetters.map((d) => ({ ...d, topic: inward(d.topic) })),
      };
    },
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
}
