import type { EmptyBody, Mode } from './rpc';
import { pingRpc } from './rpc';
import { sandboxRpc } from './rpc-contract';

/** RPC contracts of the webhook dispatcher (the gateway's POST /sandbox/webhooks/test). */
export const WebhooksRpc = {
  sendTest: sandboxRpc<EmptyBody, WebhookTestResult>('webhooks.test.send'),
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
