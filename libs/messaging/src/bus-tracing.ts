import type { EventEnvelope } from '@payments/eventsourcing';
import { activeTraceparent, Attributes, context, contextFromCarrier, contextFromTraceparent, inSpan, markFailed, platformTracer, Span, SpanKind, trace } from '@payments/observability';

/** `messaging.system` of each adapter (the embedded bus is a log table in PostgreSQL). */
export type BusSystem = 'kafka' | 'postgresql';

/**
 * One PRODUCER span per event (`publish <topic>`), child of the context stored in its metadata (the command that
 * appended it), ending when the transport took the batch. The envelopes handed to `send` carry that span's
 * traceparent in their metadata, so both adapters put it in the message (Kafka: the `traceparent` header, from
 * envelopeHeaders; embedded: the stored headers and envelope) and the consumer span becomes its child. A relay batch
 * mixes events of many requests, which is why these spans are made per event here rather than by a kafkajs
 * instrumentation that would parent the whole `send` to the relay's loop.
 */
export async function publishTraced(system: BusSystem, topic: string, envelopes: readonly EventEnvelope[], send: (traced: readonly EventEnvelope[]) => Promise<void>): Promise<void> {
  const tracer = platformTracer();
  const spans: Span[] = [];
  const traced = envelopes.map((envelope) => {
    const attributes: Attributes = { ...messageAttributes(system, topic, envelope), 'messaging.operation.type': 'send', 'messaging.operation.name': 'publish' };
    const span = tracer.startSpan(`publish ${topic}`, { kind: SpanKind.PRODUCER, attributes }, contextFromTraceparent(envelope.metadata?.traceparent));
    spans.push(span);
    const traceparent = activeTraceparent(trace.setSpan(context.active(), span));
    return traceparent ? { ...envelope, metadata: { ...envelope.metadata, traceparent } } : envelope;
  });
  try {
    await send(traced);
  } catch (error) {
    for (const span of spans) markFailed(span, error);
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

/**
 * One attempt of a handler on a message, in a CONSUMER span (`process <topic>`) child of the publisher's: the
 * transport's `traceparent` header, else the envelope's metadata. The handler's RPCs, queries and appends join it.
 */
export function consumeTraced(
  system: BusSystem,
  group: string,
  envelope: EventEnvelope,
  delivery: { topic: string; headers: Readonly<Record<string, string>>; attempt: number },
  handle: () => Promise<void>,
): Promise<void> {
  const parent = delivery.headers.traceparent ? contextFromCarrier(delivery.headers) : contextFromTraceparent(envelope.metadata?.traceparent);
  const attributes: Attributes = {
    ...messageAttributes(system, delivery.topic, envelope),
    'messaging.operation.type': 'process',
    'messaging.consumer.group.name': group,
    'messaging.delivery.attempt': delivery.attempt,
  };
  return inSpan(`process ${delivery.topic}`, { kind: SpanKind.CONSUMER, attributes, parent }, handle);
}

function messageAttributes(system: BusSystem, topic: string, envelope: EventEnvelope): Attributes {
  return {
    'messaging.system': system,
    'messaging.destination.name': topic,
    'messaging.message.id': envelope.eventId,
    'messaging.message.type': envelope.type,
    ...(system === 'kafka' ? { 'messaging.kafka.message.key': envelope.streamId } : {}),
  };
}
