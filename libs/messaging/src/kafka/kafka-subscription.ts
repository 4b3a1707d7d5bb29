import type { Consumer, EachMessagePayload, Kafka, Message } from 'kafkajs';
import { sleep } from '../abortable-sleep';
import { describeError } from '../bus-log';
import { deadLetterHeaders, deliver, DeliveryPolicy, deliveryPolicyOf } from '../delivery-policy';
import { parseEnvelopeJson } from '../envelope-codec';
import { dlqTopicOf, SubscriptionHandle, SubscriptionOptions } from '../event-bus.port';
import { consumerConfig, ResolvedKafkaOptions } from './kafka-options';
import { deadLetterMessage, headersAsStrings, nextOffset } from './kafka-messages';

export interface KafkaSubscriptionDeps {
  kafka: Kafka;
  options: ResolvedKafkaOptions;
  subscription: SubscriptionOptions;
  /** Produces to a DLQ topic with the bus's idempotent producer; rejects when the broker did not take it. */
  sendToDlq: (topic: string, message: Message) => Promise<void>;
  onStopped: (subscription: KafkaSubscription) => void;
}

/** One kafkajs consumer (one group member) per subscription, wrapped in the shared delivery policy. */
export class KafkaSubscription implements SubscriptionHandle {
  private readonly abort = new AbortController();
  private readonly consumer: Consumer;
  private readonly policy: DeliveryPolicy;
  private stopping?: Promise<void>;

  private constructor(private readonly deps: KafkaSubscriptionDeps) {
    this.policy = deliveryPolicyOf(deps.subscription);
    this.consumer = deps.kafka.consumer(consumerConfig(deps.options, deps.subscription.group));
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      deps.options.log('error', 'kafka consumer crashed', {
        group: payload.groupId,
        restart: payload.restart,
        error: describeError(payload.error),
      });
    });
  }

  static async start(deps: KafkaSubscriptionDeps): Promise<KafkaSubscription> {
    const subscription = new KafkaSubscription(deps);
    try {
      await subscription.run();
    } catch (error) {
      await subscription.consumer.disconnect().catch(() => undefined);
      throw error;
    }
    return subscription;
  }

  /** What this subscription consumes (the bus reports its lag). */
  get subscription(): SubscriptionOptions {
    return this.deps.subscription;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      try {
        // Waits for the message in flight, then leaves the group so its partitions move on at once.
        await this.consumer.disconnect();
      } finally {
        this.deps.onStopped(this);
      }
    })();
    return this.stopping;
  }

  private async run(): Promise<void> {
    const { subscription } = this.deps;
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...subscription.topics], fromBeginning: subscription.fromBeginning ?? true });
    const joined = this.waitForGroupJoin();
    await this.consumer.run({
      // Manual commits, one per message once it is handled or parked in the DLQ. With autoCommit, kafkajs
      // commits every offset eachMessage returned from, including a message a stopping subscription gave up on
      // mid-retry, which would then be lost. Cost: one OffsetCommit per message; a restart redelivers at most
      // the message in flight per partition, and the consumer's inbox absorbs it.
      autoCommit: false,
      // One partition at a time keeps the handler sequential; per-key order only needs per-partition order.
      partitionsConsumedConcurrently: 1,
      eachMessage: (payload) => this.onMessage(payload),
    });
    await joined;
  }

  private async onMessage({ topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
    // Stopping: start nothing new and commit nothing, so the next member of the group gets this message.
    if (this.abort.signal.aborted) return;
    const { subscription, options } = this.deps;
    const outcome = await deliver({
      decode: () => parseEnvelopeJson(message.value),
      context: { topic, key: message.key?.toString() ?? null, headers: headersAsStrings(message.headers) },
      handler: subscription.handler,
      policy: this.policy,
      signal: this.abort.signal,
      log: options.log,
      afterBackoff: heartbeat,
      trace: { system: 'kafka', group: subscription.group },
    });
    if (outcome.kind === 'stopped') return;
    if (outcome.kind === 'dead-letter') {
      const source = { topic, partition, offset: message.offset, group: subscription.group };
      // A failed DLQ write rejects into kafkajs on purpose: the message is fetched again, never dropped.
      await this.deps.sendToDlq(dlqTopicOf(topic), deadLetterMessage(message, deadLetterHeaders(source, outcome, new Date())));
      options.log('error', 'message parked in the DLQ; replay it with admin bus:replay-dead-letters once the cause is fixed', { ...source, attempts: outcome.attempts, error: outcome.error });
    }
    await this.consumer.commitOffsets([{ topic, partition, offset: nextOffset(message.offset) }]);
  }

  /** subscribe() returns once this member joined the group, so "subscribed" means "consuming" for callers. */
  private async waitForGroupJoin(): Promise<void> {
    const timeout = new AbortController();
    let removeListener = (): void => undefined;
    const joined = new Promise<boolean>((resolve) => {
      removeListener = this.consumer.on(this.consumer.events.GROUP_JOIN, () => resolve(true));
    });
    const waitMs = this.deps.options.consumer.joinWaitMs;
    const ok = await Promise.race([joined, sleep(waitMs, timeout.signal).then(() => false)]);
    timeout.abort();
    removeListener();
    if (!ok) this.deps.options.log('warn', 'consumer has not joined its group yet', { group: this.deps.subscription.group, waitMs });
  }
}
