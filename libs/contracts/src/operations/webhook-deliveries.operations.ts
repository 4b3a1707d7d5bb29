import { WebhooksRpc } from '../rpc';
import { ListWebhookDeliveriesQuery } from '../webhooks';
import { operation } from './http-operation';

const TAG = 'Webhook Deliveries';
const NOT_PUBLISHED = 'Not in the published API.';
/** What the platform is never shown of an attempt, as for POST /sandbox/webhooks/test. */
const HIDDEN =
  'What the endpoint answered (its body) is never shown, and an attempt that got no answer says only `NO_ANSWER`, not why ' +
  '(unreachable, timed out, refused by the egress policy): the operator has both (docs/webhooks.md).';
const REDELIVERY =
  'Any webhook but a PENDING one (409 `INVALID_STATE_TRANSITION`: it is queued already) goes back in the queue for an attempt now, with the same ' +
  '`webhookId` and a fresh retry window: DEAD_LETTER, FAILED and REJECTED, and DELIVERED too (a resend; receivers that deduplicate on the id ' +
  'will treat it as one). The dispatcher picks it up at once.';

/**
 * The platform's view of its webhook delivery queue (the webhook dispatcher's `deliveries`), in the caller's mode.
 * Our extension: the published API has none of these.
 */
export const WEBHOOK_DELIVERY_OPERATIONS = [
  operation({
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhook-deliveries',
    tag: TAG,
    summary: 'List webhook deliveries',
    description:
      `${NOT_PUBLISHED} Every webhook queued for the calling credential's platform and mode, newest first, with where it stands in the queue. ` +
      'Filters narrow: `status`, `type`, `resourceId` (the `id` of the resource in the webhook\'s `data`, e.g. a transaction), `createdAfter`, `createdBefore`. Needs VIEW.',
    permission: 'VIEW',
    service: 'webhooks',
    rpc: WebhooksRpc.listDeliveries,
    query: ListWebhookDeliveriesQuery,
    status: 200,
    response: { page: 'WebhookDelivery' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getWebhookDelivery',
    method: 'GET',
    path: '/webhook-deliveries/{webhookId}',
    tag: TAG,
    summary: 'Get a webhook delivery with its body and attempts',
    description: `${NOT_PUBLISHED} The delivery, the \`payload\` it is POSTed with and every attempt, oldest first. ${HIDDEN} Needs VIEW.`,
    permission: 'VIEW',
    service: 'webhooks',
    rpc: WebhooksRpc.getDelivery,
    status: 200,
    response: 'WebhookDeliveryDetail',
    request: ({ params }) => ({ webhookId: params.webhookId }),
  }),
  operation({
    operationId: 'redeliverWebhook',
    method: 'POST',
    path: '/webhook-deliveries/{webhookId}/redeliver',
    tag: TAG,
    summary: 'Redeliver a webhook',
    description: `${NOT_PUBLISHED} ${REDELIVERY} Answers the delivery, PENDING. Needs MANAGE.`,
    permission: 'MANAGE',
    service: 'webhooks',
    rpc: WebhooksRpc.redeliver,
    status: 200,
    response: 'WebhookDelivery',
    errors: [409],
    request: ({ params }) => ({ webhookId: params.webhookId }),
  }),
  operation({
    operationId: 'redeliverWebhookDeadLetters',
    method: 'POST',
    path: '/webhook-deliveries/redeliver-dead-letters',
    tag: TAG,
    summary: 'Redeliver every dead-lettered webhook',
    description:
      `${NOT_PUBLISHED} Puts every DEAD_LETTER webhook of the platform and mode back in the queue (same ids, a fresh retry window) and answers their ids; ` +
      'an empty list when there were none. A disabled endpoint must be set again first (`PATCH /config`), or they dead-letter again. Needs MANAGE.',
    permission: 'MANAGE',
    service: 'webhooks',
    rpc: WebhooksRpc.redeliverDeadLetters,
    status: 200,
    response: 'WebhookRedeliveryResult',
    request: () => ({}),
  }),
];
