import type { EventEnvelope } from '@payments/contracts';

/** The bus contract (DESIGN §5) is declared with the events it carries, in libs/contracts/src/events. */
export type { EventEnvelope, EventMetadata } from '@payments/contracts';

/** Anything the outbox relay can hand committed events to (an EventBus adapter satisfies it). */
export interface EventPublisher {
  /** Publishes in the given order; key = streamId. Resolves once the transport has durably accepted them. */
  publish(topic: string, envelopes: readonly EventEnvelope[]): Promise<void>;
}
