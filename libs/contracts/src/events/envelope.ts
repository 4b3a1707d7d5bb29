/** Correlation and tracing of an event: who caused it and the trace it belongs to. Open: services add fields. */
export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  traceparent?: string;
  [key: string]: unknown;
}

/**
 * What a committed event looks like outside its service: the bus contract (DESIGN §5). Every message of a service
 * topic is one envelope; its `type` names the declared event (`<Name>.v<version>`) and `data` is that event's
 * public data. The Kafka message key is `streamId` (order is kept per stream).
 */
export interface EventEnvelope<TData = unknown> {
  /** Unique per event: consumers deduplicate by it (at-least-once delivery). */
  eventId: string;
  /** The declared type, `<Name>.v<version>`, e.g. `TransactionStatusChanged.v1`. */
  type: string;
  /** The stream (aggregate) the event belongs to, e.g. `Transaction:<uuid>`; the message key. */
  streamId: string;
  /**
   * Position in its stream, from 0.
   * @asType integer
   * @minimum 0
   */
  streamVersion: number;
  /** Position in the service's log: a bigint as a decimal string (JSON-safe beyond 2^53). */
  globalPosition: string;
  /**
   * When the event was committed, ISO 8601 UTC.
   * @format date-time
   */
  occurredAt: string;
  /** The platform (tenant) the event belongs to; null for platform-independent events. */
  platformId: string | null;
  data: TData;
  metadata: EventMetadata;
}

/** The envelope of any event (non-generic, for the generated schemas: each event's schema fixes `type` and `data`). */
export type AnyEventEnvelope = EventEnvelope<unknown>;
