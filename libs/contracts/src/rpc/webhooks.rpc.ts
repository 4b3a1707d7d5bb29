import type { Page } from '../pagination';
import type { ListWebhookDeliveriesQuery, WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryIdBody, WebhookRedeliveryResult } from '../webhooks';
import type { EmptyBody, Mode } from './rpc';
import { pingRpc } from './rpc';
import { rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the webhook dispatcher: the sandbox test webhook, and the platform's view of its delivery queue. */
export const WebhooksRpc = {
  sendTest: sandboxRpc<EmptyBody, WebhookTestResult>('webhooks.test.send'),
  listDeliveries: rpc<ListWebhookDeliveriesQuery, Page<WebhookDelivery>>('webhooks.deliveries.list'),
  getDelivery: rpc<WebhookDeliveryIdBody, WebhookDeliveryDetail>('webhooks.deliveries.get'),
  /** Answers the delivery as the queue holds it after the requeue (PENDING, due now). */
  redeliver: rpc<WebhookDeliveryIdBody, WebhookDelivery>('webhooks.deliveries.redeliver'),
  redeliverDeadLetters: rpc<EmptyBody, WebhookRedeliveryResult>('webhooks.deliveries.redeliver-dead-letters'),
  ping: pingRpc('webhooks.ping'),
} as const;

/** POST /sandbox/webhooks/test: what the platform's endpoint answered to the TEST webhook. */
export interface WebhookTestResult {
  url: string;
  response_status: number;
  response_body: string;
}

/**
 * Identity → dispatcher only (IdentityRpc.webhookSettings): where and how to sign a platform's webhooks. Carries the
 * private key and the secret, so it never leaves the internal RPC network, is never logged and never on the bus.
 */
export interface WebhookSettings {
  platformId: string;
  mode: Mode;
  /** Unset: nothing is delivered (deliveries wait, then dead-letter). */
  endpoint?: string;
  /** DISABLED after the endpoint answered 410 Gone, until the platform sets an endpoint again. */
  endpointStatus: WebhookEndpointStatus;
  /** P-256 keys, PEM: SPKI public key (shown in GET /config) and PKCS#8 private key. */
  publicKeyPem: string;
  privateKeyPem: string;
  /** Standard Webhooks secret, `whsec_<base64 of 32 bytes>`. */
  secret: string;
}

export type WebhookEndpointStatus = 'ACTIVE' | 'DISABLED';

/** Dispatcher → identity (IdentityRpc.disableWebhookEndpoint): the endpoint answered 410 Gone. */
export interface DisableWebhookEndpointRequest {
  /** The endpoint that answered; a different current endpoint is left alone (it was changed meanwhile). */
  endpoint: string;
  reason: string;
}
