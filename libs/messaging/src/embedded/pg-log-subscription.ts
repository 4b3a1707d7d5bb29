import { deliveryPolicyOf } from '../delivery-policy';
import type { SubscriptionHandle, SubscriptionOptions } from '../event-bus.port';
import type { PgNotificationListener } from '@payments/eventsourcing';
import { runTopicConsumer, TopicConsumerSettings } from './pg-log-topic-consumer';
import { TopicWakeup } from './topic-wakeup';

/** One consumer loop per topic of the subscription, each with its own position and its own group lock. */
export class PgLogSubscription implements SubscriptionHandle {
  private readonly abort = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly unlisten: (() => void)[] = [];
  private stopping?: Promise<void>;

  constructor(
    settings: TopicConsumerSettings,
    readonly subscription: SubscriptionOptions,
    listener: PgNotificationListener,
    private readonly onStopped: (subscription: PgLogSubscription) => void,
  ) {
    const policy = deliveryPolicyOf(subscription);
    for (const topic of new Set(subscription.topics)) {
      const wakeup = new TopicWakeup();
      this.unlisten.push(listener.on(topic, wakeup.notify));
      this.loops.push(runTopicConsumer({ settings, subscription, topic, policy, wakeup, signal: this.abort.signal }));
    }
  }

  /** Resolves once the loops are out: a handler in flight finishes, backoffs and lock polls end at once. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.abort.abort();
      await Promise.all(this.loops);
      this.unlisten.forEach((remove) => remove());
      this.onStopped(this);
    })();
    return this.stopping;
  }
}
