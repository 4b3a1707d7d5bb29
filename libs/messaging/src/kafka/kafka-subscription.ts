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

/**
 * Group-membership errors kafkajs rejoins from when they reach its fetch loop as they are. Its offset-commit retrier
 * wraps them as KafkaJSNonRetriableError, from which the consumer crashes without restarting: a member dropped by
 * the group (a handler that waited out an outage past the session timeout, a broker restart meanwhile) would then
 * never consume again (issue #42: an acknowledged quote execution never happened).
 */
const REJOINABLE = new Set(['UNKNOWN_MEMBER_ID', 'REBALANCE_IN_PROGRESS', 'ILLEGAL_GENERATION', 'NOT_COORDINATOR_FOR_GROUP']);

function rejoinableCause(error: unknown): unknown {
  for (let e = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) if (REJOINABLE.has((e as { type?: string }).type ?? '')) return e;
  return undefined;
}

/** Longest wait between attempts to bring back a consumer kafkajs gave up on. */
const RESTART_BACKOFF_MAX_MS = 30_000;

/** One kafkajs consumer (one group member) per subscription, wrapped in the shared delivery policy. */
export class KafkaSubscription implements SubscriptionHandle {
  private readonly abort = new AbortController();
  private consumer: Consumer;
  private readonly policy: DeliveryPolicy;
  private stopping?: Promise<void>;
  private restarting?: Promise<void>;

  private constructor(private readonly deps: KafkaSubscriptionDeps) {
    this.policy = deliveryPolicyOf(deps.subscription);
    this.consumer = this.newConsumer();
  }

  private newConsumer(): Consumer {
    const { deps } = this;
    const consumer = deps.kafka.consumer(consumerConfig(deps.options, deps.subscription.group));
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      deps.options.log('error', 'kafka consumer crashed', {
        group: payload.groupId,
        restart: payload.restart ? 'by kafkajs' : this.abort.signal.aborted ? 'no: the subscription is stopping' : 'by the subscription (kafkajs does not restart from this error)',
        error: describeError(payload.error),
      });
      // A subscription lives until stop(): what kafkajs does not restart from, the subscription does.
      if (!payload.restart && consumer === this.consumer) void this.restartAfterFatalCrash();
    });
    return consumer;
  }

  /** A new consumer in place of one kafkajs stopped for good, with a backoff, until it runs or the subscription stops. */
  private restartAfterFatalCrash(): Promise<void> {
    this.restarting ??= (async () => {
      const { log } = this.deps.options;
      const group = this.deps.subscription.group;
      for (let attempt = 1; !this.abort.signal.aborted; attempt++) {
        await sleep(Math.min(RESTART_BACKOFF_MAX_MS, 500 * 2 ** (attempt - 1)), this.abort.signal);
        if (this.abort.signal.aborted) return;
        await this.consumer.disconnect().catch(() => undefined);
        this.consumer = this.newConsumer();
        try {
          await this.run();
          log('warn', 'kafka consumer restarted by its subscription after a crash', { group, attempt });
          return;
        } catch (error) {
          log('error', 'restarting a crashed kafka consumer failed; trying again', { group, attempt, error: describeError(error) });
        }
      }
    })().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
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
        await this.restarting; // a consumer being brought back is the one to disconnect
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
    const consumer = this.consumer; // its messages commit through it, also once a restart has replaced it
    await consumer.connect();
    await consumer.subscribe({ topics: [...subscription.topics], fromBeginning: subscription.fromBeginning ?? true });
    const joined = this.waitForGroupJoin(consumer);
    await consumer.run({
      // Manual commits, one per message once it is handled or parked in the DLQ. With autoCommit, kafkajs
      // commits every offset eachMessage returned from, including a message a stopping subscription gave up on
      // mid-retry, which would then be lost. Cost: one OffsetCommit per message; a restart redelivers at most
      // the message in flight per partition, and the consumer's inbox absorbs it.
      autoCommit: false,
      // One partition at a time keeps the handler sequential; per-key order only needs per-partition order.
      partitionsConsumedConcurrently: 1,
      eachMessage: (payload) => this.onMessage(consumer, payload),
    });
    await joined;
  }

  private async onMessage(consumer: Consumer, { topic, partition, message, heartbeat }: EachMessagePayload): Promise<void> {
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
    // Not committed (a member the group dropped meanwhile): the message comes again after the rejoin, and the
    // consumer's inbox absorbs the second delivery.
    await consumer.commitOffsets([{ topic, partition, offset: nextOffset(message.offset) }]).catch((error: unknown) => {
      throw rejoinableCause(error) ?? error;
    });
  }

  /** subscribe() returns once this member joined the group, so "subscribed" means "consuming" for callers. */
  private async waitForGroupJoin(consumer: Consumer): Promise<void> {
    const timeout = new AbortController();
    let removeListener = (): void => undefined;
    const joined = new Promise<boolean>((resolve) => {
      removeListener = consumer.on(consumer.events.GROUP_JOIN, () => resolve(true));
    });
    const waitMs = this.deps.options.consumer.joinWaitMs;
    const ok = await Promise.race([joined, sleep(waitMs, timeout.signal).then(() => false)]);
    timeout.abort();
    removeListener();
    if (!ok) this.deps.options.log('warn', 'consumer has not joined its group yet', { group: this.deps.subscription.group, waitMs });
  }
}
