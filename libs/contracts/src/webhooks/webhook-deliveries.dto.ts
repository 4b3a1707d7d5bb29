import { IsIn, IsISO8601, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';

/** Where a webhook is in the dispatcher's queue (webhooks.deliveries.status). */
export const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'REJECTED', 'FAILED', 'DEAD_LETTER'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * What an attempt's `error` (and a delivery's `lastError`) says: the endpoint did not answer (unreachable, timed out,
 * reset, or refused by the egress policy). Why is kept for the operator only, as POST /sandbox/webhooks/test hides it:
 * the reason would let a tenant probe whatever the dispatcher can reach.
 */
export const WEBHOOK_NO_ANSWER = 'NO_ANSWER';

/** GET /webhook-deliveries: pagination plus filters, each narrowing. */
export class ListWebhookDeliveriesQuery extends PageQuery {
  @OptionalNotNull()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;

  /** The webhook `type`, exactly (`OUTGOING_PAYMENT.COMPLETED`, `card.state_change`). */
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Za-z0-9_.]+$/, { message: 'type must be a webhook type' })
  @MaxLength(128)
  type?: string;

  /** The `id` of the resource the webhook carries in `data` (a transaction, a customer, a card…). */
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  resourceId?: string;

  /** createdAt > createdAfter. */
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  createdAfter?: string;

  /** createdAt < createdBefore. */
  @OptionalNotNull()
  @IsISO8601({ strict: true })
  createdBefore?: string;
}

/** One webhook as the platform's queue holds it (GET /webhook-deliveries). Fields without a value are left out. */
export interface WebhookDelivery {
  /** The envelope's `id` and the `webhook-id` header: the same on every attempt. @pattern ^Webhook: */
  webhookId: string;
  type: string;
  status: WebhookDeliveryStatus;
  /** Attempts that reached the point of sending (one per POST tried). @asType integer */
  attempts: number;
  /** The HTTP status of the last answer the endpoint gave. @asType integer */
  lastStatus?: number;
  /** `NO_ANSWER` when the last attempt got no answer; the reason is not shown (docs/webhooks.md). */
  lastError?: string;
  /** Why it became a dead letter: RETRY_WINDOW_EXHAUSTED, ENDPOINT_GONE, ENDPOINT_DISABLED or NO_ENDPOINT. */
  deadReason?: string;
  /** @format date-time */
  createdAt: string;
  /** When it stopped being PENDING (delivered, rejected, failed, dead-lettered). @format date-time */
  finishedAt?: string;
  /** PENDING only: when the next attempt is due. @format date-time */
  nextAttemptAt?: string;
  /** The `id` of the resource in `data`; absent for a TEST. */
  resourceId?: string;
}

/** One attempt: what was tried and what came back, never the body the endpoint answered. */
export interface WebhookDeliveryAttempt {
  /** @asType integer */
  attempt: number;
  /** The endpoint it was POSTed to (the platform's webhookEndpoint then). */
  url: string;
  /** The endpoint's HTTP status; absent when it did not answer. @asType integer */
  responseStatus?: number;
  /** @asType integer */
  latencyMs: number;
  /** `NO_ANSWER` when no answer came. */
  error?: string;
  /** @format date-time */
  at: string;
}

/** The body a webhook is POSTed with: the envelope of docs/webhooks.md. */
export interface WebhookPayload {
  /** @pattern ^Webhook: */
  id: string;
  type: string;
  /** When the last attempt sent it (every attempt stamps its own); the time of this answer when none was made yet. @format date-time */
  timestamp: string;
  data: Record<string, unknown>;
}

/** GET /webhook-deliveries/{webhookId}: the delivery with its body and every attempt (`attempts` is the list here). */
export interface WebhookDeliveryDetail extends Omit<WebhookDelivery, 'attempts'> {
  payload: WebhookPayload;
  /** Oldest first. */
  attempts: WebhookDeliveryAttempt[];
}

/** POST /webhook-deliveries/redeliver-dead-letters. */
export interface WebhookRedeliveryResult {
  /** The webhook ids put back in the queue, newest first; empty when there were none. */
  requeued: string[];
}

/** The path parameter of one delivery. */
export interface WebhookDeliveryIdBody {
  webhookId: string;
}

export const isWebhookId = (value: string): boolean => /^Webhook:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
