/**
 * Is this error an outage rather than a verdict? Consumers, the services' RPC answers and the gateway ask this one
 * question (issue #42): a database restarting, a broker away or a peer service unreachable will pass, so the work is
 * retried (a consumer waits on its message, the API answers 503 with Retry-After); anything else is about the work
 * itself and retrying it cannot help (a consumer parks the message, the API answers with the error).
 *
 * Walks the causes (`cause`, TypeORM's `driverError`, an AggregateError's `errors`: pg dials every address a host name
 * resolves to) so a wrapped outage is still one.
 */
export function isInfrastructureFailure(error: unknown): boolean {
  return someCause(error, isOutage, 0);
}

/** Node's socket errors: the other side is not there, or stopped answering. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND']);

/**
 * PostgreSQL SQLSTATEs that say "not now" rather than "not this": connection exceptions (class 08), the server
 * shutting down or starting (57P01-57P03), out of connections or resources (53xxx), a serialization failure or
 * deadlock (40001, 40P01: the transaction may simply run again), a lock timeout (55P03).
 */
function isRetryableSqlState(code: string): boolean {
  return code.startsWith('08') || code.startsWith('53') || ['57P01', '57P02', '57P03', '40001', '40P01', '55P03'].includes(code);
}

/** node-postgres reports a lost or unobtainable connection by message only. */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /^Query read timeout$/,
  /the database system is (starting up|shutting down|in recovery mode)/,
];

/** KafkaJS errors about the broker connection (its own `retriable` flag covers the protocol's retryable codes). */
const KAFKA_OUTAGES = new Set(['KafkaJSConnectionError', 'KafkaJSConnectionClosedError', 'KafkaJSRequestTimeoutError', 'KafkaJSBrokerNotFound', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSLockTimeout']);

function isOutage(error: object): boolean {
  const { code, name, message, retriable, status } = error as { code?: unknown; name?: unknown; message?: unknown; retriable?: unknown; status?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isRetryableSqlState(code)))) return true;
  // A peer service's answer: unreachable, timed out, or itself waiting on an outage (it answered 503).
  if (code === 'SERVICE_UNAVAILABLE' || (status === 503 && typeof code === 'string')) return true;
  if (typeof name === 'string' && (KAFKA_OUTAGES.has(name) || (name.startsWith('KafkaJS') && retriable === true))) return true;
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

function someCause(error: unknown, test: (error: object) => boolean, depth: number): boolean {
  if (depth > 8 || error === null || typeof error !== 'object') return false;
  if (test(error)) return true;
  const { cause, driverError, errors, originalError } = error as { cause?: unknown; driverError?: unknown; errors?: unknown; originalError?: unknown };
  if ([cause, driverError, originalError].some((inner) => inner !== error && someCause(inner, test, depth + 1))) return true;
  return Array.isArray(errors) && errors.length > 0 && errors.every((inner) => someCause(inner, test, depth + 1));
}
