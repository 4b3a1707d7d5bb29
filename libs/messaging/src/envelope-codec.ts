import type { EventEnvelope } from '@payments/eventsourcing';

/** A message that can never be handled as it is (not JSON, not an envelope): retrying it is pointless. */
export class PoisonMessageError extends Error {
  override readonly name = 'PoisonMessageError';
}

/** Headers every published message carries, so tooling can route and trace without parsing the value. */
export function envelopeHeaders(envelope: EventEnvelope): Record<string, string> {
  const headers: Record<string, string> = { eventId: envelope.eventId, type: envelope.type };
  const traceparent = envelope.metadata?.traceparent;
  if (typeof traceparent === 'string' && traceparent) headers.traceparent = traceparent;
  return headers;
}

export function parseEnvelopeJson(raw: string | Buffer | null): EventEnvelope {
  if (raw === null || raw.length === 0) throw new PoisonMessageError('empty message value');
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch (error) {
    throw new PoisonMessageError(`value is not JSON: ${(error as Error).message}`);
  }
  return asEnvelope(value);
}

/** Checks the fields consumers rely on; anything else in the envelope is the event's own business. */
export function asEnvelope(value: unknown): EventEnvelope {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PoisonMessageError('value is not an object');
  }
  const v = value as Record<string, unknown>;
  for (const field of ['eventId', 'type', 'streamId'] as const) {
    if (typeof v[field] !== 'string' || v[field] === '') throw new PoisonMessageError(`envelope.${field} is missing`);
  }
  if (!Number.isSafeInteger(v.streamVersion)) throw new PoisonMessageError('envelope.streamVersion is not an integer');
  if (typeof v.metadata !== 'object' || v.metadata === null) throw new PoisonMessageError('envelope.metadata is missing');
  return value as EventEnvelope;
}
