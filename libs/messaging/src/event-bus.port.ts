import type { EventEnvelope, EventPublisher } from '@payments/eventsourcing';
import type { DeadLetter } from './dead-letters';

/** What a consumer is told about the delivery it is handling. */
export interface DeliveryContext {
  topic: string;
  /** The message key: the stream id for domain events (per-key order is guaranteed). */
  key: string | null;
  /** Transport headers as strings: eventId, type, traceparent; on a `.dlq` topic also the `x-*` failure details. */
  headers: Readonly<Record<string, string>>;
  /** 1 for the first try of this message in this process; retries count up to maxAttempts. */
  attempt: number;
}

export type MessageHandler = (envelope: EventEnvelope, context: DeliveryContext) => Promise<void>;

export interface SubscriptionOptions {
  /** Consumer group: one per (service, purpose), e.g. `webhook-dispatcher.deliveries`. */
  group: string;
  topics: readonly string[];
  handler: MessageHandler;
  /** Attempts per message before it is parked in `<topic>.dlq` and the partition moves on. */
  maxAttempts?: number;
  /** Backoff between attempts: retryBackoffMs * 2^(attempt-1), capped at 5 s. */
  retryBackoffMs?: number;
  /** Start from the beginning of the log when the group has no stored position (default true). */
  fromBeginning?: boolean;
}

export interface SubscriptionHandle {
  stop(): Promise<void>;
}

/** How far one consumer group is behind in one topic (operators' lag metrics). */
export interface ConsumerLag {
  group: string;
  topic: string;
  /** Messages of the topic after the group's stored position (embedded: counted up to a bound; Kafka: offset lag). */
  eventsBehind: number;
  /** Seconds since the oldest of them was published; only the embedded bus knows it cheaply (Kafka: undefined). */
  oldestAgeSeconds?: number;
}

/** The lag of some consumer groups, and the dead letters of the topics they read. */
export interface ConsumerBacklog {
  consumers: ConsumerLag[];
  /** Messages parked in `<topic>.dlq`, per source topic (by every group that reads it). */
  deadLetters: { topic: string; messages: number }[];
}

/**
 * The event bus port (DESIGN §5). Delivery is at-least-once and ordered per key (the stream id); consumers make
 * the effect exactly-once with the inbox. Adapters: Kafka (kafkajs) and the embedded PostgreSQL-log bus.
 */
export interface EventBus extends EventPublisher {
  /**
   * Makes sure the topics and their `.dlq` topics exist (idempotent). Kafka creates them with `partitions`
   * partitions (an existing topic is left as it is); the embedded bus has nothing to create.
   */
  ensureTopics(topics: readonly string[], partitions?: number): Promise<void>;
  subscribe(options: SubscriptionOptions): Promise<SubscriptionHandle>;
  /**
   * The event ids of every message the topic holds now, read from its beginning (operator use: finding committed
   * events a relay never published). Costs a full read of the topic.
   */
  publishedEventIds(topic: string): Promise<Set<string>>;
  /**
   * Every message parked in `<topic>.dlq`, oldest first (operator use: admin bus:dead-letters and
   * bus:replay-dead-letters). Costs a full read of the DLQ topic.
   */
  deadLetters(topic: string): Promise<DeadLetter[]>;
  /**
   * The lag of the subscriptions running on this bus instance whose group starts with `groupPrefix` (groups are
   * named `<app>.<purpose>`, so each app asks for its own), and the dead letters of the topics they read. Bounded
   * cost, for a metrics scrape: a few indexed queries (embedded) or two admin requests per topic and group (Kafka).
   */
  consumerBacklog(groupPrefix: string): Promise<ConsumerBacklog>;
  /** Checks the transport is reachable (readiness probes). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DLQ_SUFFIX = '.dlq';
export const dlqTopicOf = (topic: string): string => `${topic}${DLQ_SUFFIX}`;
export const isDlqTopic = (topic: string): boolean => topic.endsWith(DLQ_SUFFIX);

/** Topic naming of DESIGN §5: one topic per service. */
export const serviceTopic = (service: string): string => `payments.${service}.events.v1`;
