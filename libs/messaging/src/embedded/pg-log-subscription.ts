import { deliveryPolicyOf } from '../delivery-policy';
import type { SubscriptionHandle, SubscriptionOptions } from '../event-bus.port';
import { PgNotificationListener, PollPause } from '@payments/eventsourcing';
import { CONSUMER_LINGER_MS, runTopicConsumer, TopicConsumerSettings } from './pg-log-topic-consumer';

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
      // Woken by the topic's NOTIFY, also one that came while the loop was reading or handling.
      const pause = new PollPause({ baseMs: settings.pollIntervalMs, maxMs: settings.pollIdleMaxMs, lingerMs: CONSUMER_LINGER_MS, signal: this.abort.signal });
      this.unlisten.push(listener.on(topic, pause.wake));
      this.loops.push(runTopicConsumer({ settings, subscription, topic, policy, pause, signal: this.abort.signal }));
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
