import { EventEnvelope, isInfrastructureFailure } from '@payments/eventsourcing';
import { sleep } from './abortable-sleep';
import { BusLog, describeError } from './bus-log';
import { BusSystem, consumeTraced } from './bus-tracing';
import type { DeliveryContext, MessageHandler, SubscriptionOptions } from './event-bus.port';

/**
 * The one retry / backoff / dead-letter policy both adapters apply (DESIGN §5, issue #42). A handler failing on the
 * message itself is tried a bounded number of times, then the message is parked in `<topic>.dlq` so it never blocks
 * its partition and never vanishes. A failure of the infrastructure (database, broker, a peer service unreachable or
 * answering 503: `isInfrastructureFailure`) says nothing about the message: it is retried with the same backoff
 * without limit, and the subscription waits on it (paused, its position unmoved) until the outage passes or it stops.
 * Parking such a message would drop an acknowledged effect (a quote execution, a webhook) during every outage.
 */
export const MAX_ATTEMPTS_DEFAULT = 5;
export const RETRY_BACKOFF_MS_DEFAULT = 200;
export const RETRY_BACKOFF_MAX_MS = 5_000;
const DLQ_ERROR_LENGTH_MAX = 2_000;

export interface DeliveryPolicy {
  maxAttempts: number;
  retryBackoffMs: number;
  retryBackoffMaxMs: number;
}

export function deliveryPolicyOf(options: Pick<SubscriptionOptions, 'maxAttempts' | 'retryBackoffMs'>): DeliveryPolicy {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS_DEFAULT;
  const retryBackoffMs = options.retryBackoffMs ?? RETRY_BACKOFF_MS_DEFAULT;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) throw new Error(`maxAttempts must be an integer >= 1, got ${maxAttempts}`);
  if (!Number.isFinite(retryBackoffMs) || retryBackoffMs < 0) throw new Error(`retryBackoffMs must be >= 0, got ${retryBackoffMs}`);
  return { maxAttempts, retryBackoffMs, retryBackoffMaxMs: RETRY_BACKOFF_MAX_MS };
}

/** Wait after the `failedAttempt`-th failure: retryBackoffMs * 2^(failedAttempt-1), capped. */
export function backoffMs(policy: DeliveryPolicy, failedAttempt: number): number {
  return Math.min(policy.retryBackoffMaxMs, policy.retryBackoffMs * 2 ** (failedAttempt - 1));
}

export type DeliveryOutcome =
  | { kind: 'handled'; attempts: number }
  /** Retries on the message itself exhausted, or it does not decode (attempts 0): park it in the DLQ, then move on. */
  | { kind: 'dead-letter'; attempts: number; error: string }
  /** The subscription is stopping: neither handled nor parked, so its position must NOT move past it. */
  | { kind: 'stopped'; attempts: number };

export interface Delivery {
  /** Decodes the raw message; a throw means poison (dead-lettered without calling the handler). */
  decode: () => EventEnvelope;
  context: Omit<DeliveryContext, 'attempt'>;
  handler: MessageHandler;
  policy: DeliveryPolicy;
  signal: AbortSignal;
  log: BusLog;
  /** Runs after each backoff (Kafka: heartbeat, so a long retry does not cost the partition). */
  afterBackoff?: () => Promise<void>;
  /** For the consumer spans: the adapter and the consumer group. */
  trace: { system: BusSystem; group: string };
}

export async function deliver(delivery: Delivery): Promise<DeliveryOutcome> {
  let envelope: EventEnvelope;
  try {
    envelope = delivery.decode();
  } catch (error) {
    return { kind: 'dead-letter', attempts: 0, error: `poison message: ${describeError(error)}` };
  }
  return deliverWithRetries(envelope, delivery);
}

async function deliverWithRetries(envelope: EventEnvelope, d: Delivery): Promise<DeliveryOutcome> {
  const { policy, signal } = d;
  let lastError = '';
  let attempt = 0; // every call of the handler, reported to it as context.attempt
  let failures = 0; // failures about the message; outages do not count towards maxAttempts
  let outages = 0; // consecutive outages, for the backoff and to log the first and then every tenth
  for (;;) {
    if (signal.aborted) return { kind: 'stopped', attempts: attempt };
    attempt++;
    try {
      const context = { ...d.context, attempt };
      await consumeTraced(d.trace.system, d.trace.group, envelope, context, () => d.handler(envelope, context));
      if (outages > 0) d.log('info', 'handler recovered after an outage', { topic: d.context.topic, group: d.trace.group, eventId: envelope.eventId, attempt });
      return { kind: 'handled', attempts: attempt };
    } catch (error) {
      // A handler error never escapes: the adapter would redeliver at once, in a tight loop.
      lastError = describeError(error);
      if (isInfrastructureFailure(error)) {
        outages++;
        failures = 0; // the message's own failures are counted anew once the outage is over
        if (outages % 10 === 1) d.log('warn', 'handler waits for the infrastructure; the subscription is paused on this message', { topic: d.context.topic, group: d.trace.group, eventId: envelope.eventId, attempt, error: lastError });
      } else {
        outages = 0;
        failures++;
        d.log('warn', 'handler failed', { topic: d.context.topic, group: d.trace.group, eventId: envelope.eventId, attempt, error: lastError });
        if (failures >= policy.maxAttempts) return { kind: 'dead-letter', attempts: attempt, error: lastError };
      }
    }
    await sleep(backoffMs(policy, Math.max(failures, outages)), signal);
    if (!signal.aborted) await d.afterBackoff?.();
  }
}

/** Where a dead letter came from; the embedded bus is one partition per topic and uses its log position as offset. */
export interface DeadLetterSource {
  topic: string;
  partition: number;
  offset: string;
  group: string;
}

/** Headers added to the original message (same key, same value, same headers) when it is parked in the DLQ. */
export function deadLetterHeaders(
  source: DeadLetterSource,
  outcome: Extract<DeliveryOutcome, { kind: 'dead-letter' }>,
  now: Date,
): Record<string, string> {
  return {
    'x-original-topic': source.topic,
    'x-original-partition': String(source.partition),
    'x-original-offset': source.offset,
    'x-group': source.group,
    'x-attempts': String(outcome.attempts),
    'x-error': outcome.error.slice(0, DLQ_ERROR_LENGTH_MAX),
    'x-dead-lettered-at': now.toISOString(),
  };
}
