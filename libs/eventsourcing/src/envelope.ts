/** What a committed event looks like outside its service: the bus contract (DESIGN §5). */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  traceparent?: string;
  [key: string]: unknown;
}

export interface EventEnvelope<TData = unknown> {
  eventId: string;
  type: string;
  streamId: string;
  streamVersion: number;
  globalPosition: string; // bigint as decimal string: JSON-safe beyond 2^53
  occurredAt: string; // ISO 8601 UTC
  platformId: string | null;
  data: TData;
  metadata: EventMetadata;
}

/** Anything the outbox relay can hand committed events to (an EventBus adapter satisfies it). */
export interface EventPublisher {
  /** Publishes in the given order; key = streamId. Resolves once the transport has durably accepted them. */
  publish(topic: string, envelopes: readonly EventEnvelope[]): Promise<void>;
}
