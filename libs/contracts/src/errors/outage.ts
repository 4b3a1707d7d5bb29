import type { ErrorEnvelope } from './error-envelope';

/** Seconds a client waits before retrying a 503 (or a 429 that names none): outages here last seconds, not minutes. */
export const OUTAGE_RETRY_AFTER_SECONDS = 2;

/**
 * The answer while the database or the bus is unreachable (a PostgreSQL restart, a failover, a broker away): 503 with
 * Retry-After, which tells a client that the same request, with the same Idempotency-Key, is the right retry. Nothing
 * was decided: a 5xx keeps no idempotent answer.
 */
export const OUTAGE_ENVELOPE: ErrorEnvelope = {
  status: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: 'the platform is briefly unavailable; retry this request with the same Idempotency-Key',
  details: { retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS },
};

/** Retry-After of a 429 or 503: the envelope's own `details.retryAfterSeconds`, else the outage default. */
export function retryAfterSecondsOf(envelope: ErrorEnvelope): number {
  const seconds = envelope.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : envelope.status === 429 ? 1 : OUTAGE_RETRY_AFTER_SECONDS;
}
