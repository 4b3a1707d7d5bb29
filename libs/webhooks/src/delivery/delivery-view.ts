import { WEBHOOK_NO_ANSWER, WebhookDelivery, WebhookDeliveryAttempt, WebhookDeliveryDetail, WebhookPayload } from '@payments/contracts';
import type { AttemptRow, DeliveryRow } from './delivery-queue';
import { webhookBody } from './delivery-worker';

/**
 * What a platform is shown of its queue. Pure. Never an endpoint's answer body (response_excerpt) and never why an
 * attempt got no answer (the error text): like POST /sandbox/webhooks/test, a tenant learns the HTTP status and
 * nothing else, since the rest would let it read and probe whatever the dispatcher can reach. The operator keeps both.
 */
export function toWebhookDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    webhookId: row.webhook_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    ...(row.last_status !== null ? { lastStatus: row.last_status } : {}),
    ...(row.last_error !== null ? { lastError: WEBHOOK_NO_ANSWER } : {}),
    ...(row.dead_reason !== null ? { deadReason: row.dead_reason } : {}),
    createdAt: iso(row.created_at),
    ...(row.finished_at ? { finishedAt: iso(row.finished_at) } : {}),
    ...(row.status === 'PENDING' ? { nextAttemptAt: iso(row.next_attempt_at) } : {}),
    ...(row.resource_id !== null ? { resourceId: row.resource_id } : {}),
  };
}

export function toWebhookDeliveryDetail(row: DeliveryRow, attempts: readonly AttemptRow[], now: Date): WebhookDeliveryDetail {
  const { attempts: _count, ...delivery } = toWebhookDelivery(row);
  const lastSent = attempts.at(-1)?.at;
  return { ...delivery, payload: payloadOf(row, lastSent ? new Date(lastSent) : now), attempts: attempts.map(toAttempt) };
}

/** The body as the dispatcher sends it (the one builder, webhookBody), stamped with `sentAt`. */
export function payloadOf(row: Pick<DeliveryRow, 'webhook_id' | 'type' | 'data_json'>, sentAt: Date): WebhookPayload {
  return JSON.parse(webhookBody(row, sentAt)) as WebhookPayload;
}

function toAttempt(row: AttemptRow): WebhookDeliveryAttempt {
  return {
    attempt: row.attempt,
    url: row.url ?? '', // always set: an attempt is recorded only once a POST was made to the endpoint
    ...(row.response_status !== null ? { responseStatus: row.response_status } : {}),
    latencyMs: row.latency_ms,
    ...(row.response_status === null ? { error: WEBHOOK_NO_ANSWER } : {}),
    at: iso(row.at),
  };
}

const iso = (value: Date | string): string => new Date(value).toISOString();
