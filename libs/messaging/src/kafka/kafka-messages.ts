import type { EventEnvelope } from '@payments/eventsourcing';
import type { IHeaders, KafkaMessage, Message } from 'kafkajs';
import { envelopeHeaders } from '../envelope-codec';

/** key = stream id (per-aggregate order), value = the envelope as JSON, headers for routing and tracing. */
export function toKafkaMessage(envelope: EventEnvelope): Message {
  return { key: envelope.streamId, value: JSON.stringify(envelope), headers: envelopeHeaders(envelope) };
}

/** kafkajs hands headers over as Buffers (or arrays of them for repeated keys; the last one wins here). */
export function headersAsStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}

/** The original key, value and headers, plus the failure details: a DLQ reader can replay it byte for byte. */
export function deadLetterMessage(message: KafkaMessage, failureHeaders: Record<string, string>): Message {
  return {
    key: message.key,
    value: message.value,
    headers: { ...headersAsStrings(message.headers), ...failureHeaders },
  };
}

export const nextOffset = (offset: string): string => (BigInt(offset) + 1n).toString();
