import type { EventEnvelope } from '@payments/eventsourcing';
import { Admin, Kafka, KafkaMessage, Message, Producer } from 'kafkajs';
import { DeadLetter, deadLetterOf } from '../dead-letters';
import { parseEnvelopeJson } from '../envelope-codec';
import { ConsumerBacklog, ConsumerLag, dlqTopicOf, EventBus, isDlqTopic, SubscriptionHandle, SubscriptionOptions } from '../event-bus.port';
import {
  kafkaClientConfig,
  KafkaEventBusOptions,
  producerConfig,
  ResolvedKafkaOptions,
  resolveKafkaOptions,
  SEND_DEFAULTS,
} from './kafka-options';
import { headersAsStrings, toKafkaMessage } from './kafka-messages';
import { offsetLag, PartitionEnds, topicMessages } from './kafka-lag';
import { KafkaSubscription } from './kafka-subscription';
import { publishTraced } from '../bus-tracing';

/** The event bus on Kafka (kafkajs 2.2.4): the cluster-mode adapter of DESIGN §5. */
export class KafkaEventBus implements EventBus {
  private readonly options: ResolvedKafkaOptions;
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private producerReady?: Promise<void>;
  private adminReady?: Promise<void>;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private closed = false;

  constructor(options: KafkaEventBusOptions) {
    this.options = resolveKafkaOptions(options);
    this.kafka = new Kafka(kafkaClientConfig(this.options));
    this.producer = this.kafka.producer(producerConfig(this.options));
    this.admin = this.kafka.admin({ retry: { retries: this.options.retries } });
  }

  /** One send per call: the messages go in order, one per envelope; resolves when all in-sync replicas have them. */
  async publish(topic: string, envelopes: readonly EventEnvelope[]): Promise<void> {
    this.assertOpen();
    if (envelopes.length === 0) return;
    await publishTraced('kafka', topic, envelopes, (traced) => this.send(topic, traced.map(toKafkaMessage)));
  }

  async ensureTopics(topics: readonly string[], partitions = this.options.partitionsDefault): Promise<void> {
    this.assertOpen();
    const wanted = new Set(topics.flatMap((t) => (isDlqTopic(t) ? [t] : [t, dlqTopicOf(t)])));
    await this.connectAdmin();
    const existing = new Set(await this.admin.listTopics());
    const missing = [...wanted].filter((t) => !existing.has(t));
    if (missing.length === 0) return;
    // Resolves false when another process created them first: fine, that is what we wanted.
    await this.withMetadataRetry(() =>
      this.admin.createTopics({
        waitForLeaders: true,
        timeout: this.options.requestTimeoutMs,
        topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: this.options.replicationFactor })),
      }),
    );
  }

  /**
   * A topic created a moment ago can be missing from a broker's metadata for a short while (UNKNOWN_TOPIC_OR_PARTITION,
   * "does not host this topic-partition"), which kafkajs' leader wait does not retry: retry it, bounded.
   */
  private async withMetadataRetry<T>(attempt: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.options.requestTimeoutMs;
    for (let delayMs = 100; ; delayMs = Math.min(delayMs * 2, 1_000)) {
      try {
        return await attempt();
      } catch (error) {
        const type = (error as { type?: string }).type;
        if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' && type !== 'LEADER_NOT_AVAILABLE') throw error;
        if (Date.now() + delayMs > deadline) throw error;
        await new Promise((r) => setTimeout(r, delayMs));
      }
    }
  }

  async subscribe(subscription: SubscriptionOptions): Promise<SubscriptionHandle> {
    this.assertOpen();
    if (subscription.topics.length === 0) throw new Error(`subscription ${subscription.group} has no topics`);
    await this.connectProducer(); // the DLQ needs it; fail now rather than at the first poison message
    // A consumer may start before the producing service ever published (payments before quoting, say): create the
    // topics (and their DLQs) so the subscription has partitions to join instead of failing on missing metadata.
    await this.ensureTopics(subscription.topics);
    // A start that fails disconnects its consumer, so a retry on a fresh topic's missing metadata starts clean.
    const handle = await this.withMetadataRetry(() =>
      KafkaSubscription.start({
        kafka: this.kafka,
        options: this.options,
        subscription,
        sendToDlq: (topic, message) => this.send(topic, [message]),
        onStopped: (s) => this.subscriptions.delete(s),
      }),
    );
    this.subscriptions.add(handle);
    return handle;
  }

  /** A throw-away group reads every partition from its beginning up to the offsets it had when the call began. */
  async publishedEventIds(topic: string): Promise<Set<string>> {
    const ids = new Set<string>();
    await this.readToEnd(topic, 'published-ids', (_partition, message) => {
      const eventId = headersAsStrings(message.headers).eventId;
      if (eventId) ids.add(eventId);
    });
    return ids;
  }

  async deadLetters(topic: string): Promise<DeadLetter[]> {
    const letters: DeadLetter[] = [];
    await this.readToEnd(dlqTopicOf(topic), 'dead-letters', (partition, message) =>
      letters.push(deadLetterOf({ dlqPosition: `${partition}:${message.offset}`, key: message.key?.toString() ?? null, headers: headersAsStrings(message.headers), decode: () => parseEnvelopeJson(message.value) })),
    );
    return letters.sort((a, b) => a.deadLetteredAt.localeCompare(b.deadLetteredAt));
  }

  /** Every message the topic holds now, each partition read to its high watermark by a throwaway group. */
  private async readToEnd(topic: string, purpose: string, onMessage: (partition: number, message: KafkaMessage) => void): Promise<void> {
    this.assertOpen();
    await this.connectAdmin();
    const offsets = await this.admin.fetchTopicOffsets(topic).catch((error: { type?: string }) => {
      if (error?.type === 'UNKNOWN_TOPIC_OR_PARTITION') return []; // never created: nothing in it
      throw error;
    });
    const ends = new Map(offsets.map((p) => [p.partition, { low: BigInt(p.low), high: BigInt(p.high) }]));
    const pending = new Set([...ends].filter(([, o]) => o.high > o.low).map(([partition]) => partition));
    if (pending.size === 0) return;
    const groupId = `${this.options.clientId}.${purpose}.${Date.now()}.${Math.random().toString(36).slice(2)}`;
    const consumer = this.kafka.consumer({ groupId, readUncommitted: false, allowAutoTopicCreation: false });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`reading ${topic} took longer than ${this.options.requestTimeoutMs * 10} ms`)), this.options.requestTimeoutMs * 10);
        consumer
          .run({
            eachMessage: async ({ partition, message }) => {
              if (!pending.has(partition)) return;
              onMessage(partition, message);
              if (BigInt(message.offset) + 1n >= ends.get(partition)!.high) pending.delete(partition);
              if (pending.size === 0) {
                clearTimeout(deadline);
                resolve();
              }
            },
          })
          .catch(reject);
      });
    } finally {
      await consumer.disconnect().catch(() => undefined);
      await this.admin.deleteGroups([groupId]).catch(() => undefined);
    }
  }

  /**
   * Offset lag from the admin API (the high watermark minus the group's committed offset, summed over partitions):
   * one ListOffsets per topic and one OffsetFetch per group. The age of the oldest unconsumed message would mean
   * fetching it, so Kafka reports no age.
   */
  async consumerBacklog(groupPrefix: string): Promise<ConsumerBacklog> {
    this.assertOpen();
    const subscriptions = [...this.subscriptions].map((s) => s.subscription).filter((s) => s.group.startsWith(groupPrefix));
    if (subscriptions.length === 0) return { consumers: [], deadLetters: [] };
    await this.connectAdmin();
    const topics = [...new Set(subscriptions.flatMap((s) => s.topics))];
    const ends = async (topic: string): Promise<PartitionEnds[]> => this.admin.fetchTopicOffsets(topic);
    const [topicEnds, deadLetters] = await Promise.all([
      Promise.all(topics.map(async (topic) => [topic, await ends(topic)] as const)).then((entries) => new Map(entries)),
      Promise.all(topics.map(async (topic) => ({ topic, messages: topicMessages(await ends(dlqTopicOf(topic))) }))),
    ]);
    const consumers = await Promise.all(
      subscriptions.map(async ({ group, topics: subscribed, fromBeginning }): Promise<ConsumerLag[]> => {
        const committed = await this.admin.fetchOffsets({ groupId: group, topics: [...new Set(subscribed)] });
        return committed.map(({ topic, partitions }) => ({ group, topic, eventsBehind: offsetLag(topicEnds.get(topic) ?? [], partitions, fromBeginning ?? true) }));
      }),
    );
    return { consumers: consumers.flat(), deadLetters };
  }

  async ping(): Promise<void> {
    await this.connectAdmin();
    await this.admin.describeCluster();
  }

  /** Stops every subscription (in-flight messages finish, DLQ writes included), then the producer and admin. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.subscriptions].map((s) => s.stop()));
    await Promise.allSettled([
      this.producerReady && this.producer.disconnect(),
      this.adminReady && this.admin.disconnect(),
    ]);
  }

  private async send(topic: string, messages: Message[]): Promise<void> {
    await this.connectProducer();
    await this.producer.send({ topic, messages, ...SEND_DEFAULTS, timeout: this.options.sendTimeoutMs });
  }

  private connectProducer(): Promise<void> {
    this.producerReady ??= this.producer.connect().catch((error: unknown) => {
      this.producerReady = undefined; // let the next call try again
      throw error;
    });
    return this.producerReady;
  }

  private connectAdmin(): Promise<void> {
    this.adminReady ??= this.admin.connect().catch((error: unknown) => {
      this.adminReady = undefined;
      throw error;
    });
    return this.adminReady;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('KafkaEventBus is closed');
  }
}
