import { describeIfKafka, eventually, kafkaBrokersForTests } from '@payments/testing';
import { envelopeOf, uniqueSuffix } from '../event-bus.contract-fixtures';
import { KafkaEventBus } from './kafka-event-bus';

const brokers = kafkaBrokersForTests() ?? [];

/**
 * Replicas of a first install create the same topics at the same moment (each service its own topic and the topics
 * it consumes, with their DLQs), so each one's CreateTopics finds some, or all, of its topics made by another a
 * moment before (TOPIC_ALREADY_EXISTS). Every replica must carry on, and at once publish to and consume them.
 */
describeIfKafka('KafkaEventBus.ensureTopics by replicas starting at once', () => {
  it('succeeds for every replica on overlapping topic sets, and the topics work right after', async () => {
    const suffix = uniqueSuffix();
    const topics = [0, 1, 2, 3].map((i) => `race.${suffix}.t${i}`);
    const buses = Array.from({ length: 6 }, (_, i) => new KafkaEventBus({ brokers, clientId: `topic-race-${i}-${suffix}`, consumer: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 10_000, maxWaitTimeMs: 100 } }));
    try {
      // Each wants its own pair (overlapping its neighbours'): a partial overlap, the case a whole-set check misses.
      const outcomes = await Promise.allSettled(buses.map((bus, i) => bus.ensureTopics([topics[i % 4], topics[(i + 1) % 4]], 3)));
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual(buses.map(() => 'ok'));
      const seen: string[] = [];
      await Promise.all(buses.map((bus, i) => bus.subscribe({ group: `race-${i}-${suffix}`, topics: [topics[(i + 1) % 4]], handler: async (e) => void seen.push(`${i}:${e.streamId}`) })));
      await Promise.all(topics.map((topic, i) => buses[i].publish(topic, [envelopeOf(`Race:${i}`, 1)])));
      await eventually(async () => seen.length >= buses.length, { timeoutMs: 30_000, what: 'every subscriber got its topic\'s event' });
    } finally {
      await Promise.all(buses.map((b) => b.close()));
    }
  }, 90_000);
});
