import type { EventEnvelope } from '@payments/eventsourcing';
import type { DeadLetterSource } from './delivery-policy';

/** One message parked in `<topic>.dlq`, as an operator lists or replays it (admin bus:dead-letters). */
export interface DeadLetter {
  /** The parked envelope; undefined when it never decoded (parked with `attempts` 0), so it cannot be replayed. */
  envelope?: EventEnvelope;
  /** Its position in the DLQ topic (partition:offset on Kafka, the log position on the embedded bus). */
  dlqPosition: string;
  key: string | null;
  eventId?: string;
  type?: string;
  /** Where it was consumed from and by which group. */
  source: DeadLetterSource;
  attempts: number;
  error: string;
  deadLetteredAt: string;
}

/** Reads back what deadLetterHeaders wrote, beside the message's own key, value and headers. */
export function deadLetterOf(message: { dlqPosition: string; key: string | null; headers: Record<string, string>; decode: () => EventEnvelope }): DeadLetter {
  const { headers } = message;
  let envelope: EventEnvelope | undefined;
  try {
    envelope = message.decode();
  } catch {
    envelope = undefined; // poison: listed with its error, not replayable
  }
  return {
    ...(envelope ? { envelope } : {}),
    dlqPosition: message.dlqPosition,
    key: message.key,
    eventId: envelope?.eventId ?? headers.eventId,
    type: envelope?.type ?? headers.type,
    source: { topic: headers['x-original-topic'] ?? '', partition: Number(headers['x-original-partition'] ?? 0), offset: headers['x-original-offset'] ?? '', group: headers['x-group'] ?? '' },
    attempts: Number(headers['x-attempts'] ?? 0),
    error: headers['x-error'] ?? '',
    deadLetteredAt: headers['x-dead-lettered-at'] ?? '',
  };
}
