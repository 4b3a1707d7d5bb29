import { rawRpc } from './rpc-contract';

/** Where the gateway receives rail bridges' callbacks: `${PUBLIC_URL}${RAIL_CALLBACKS_PATH}/{connectorId}`. */
export const RAIL_CALLBACKS_PATH = '/rails/v1/callbacks';

/** A rail bridge's signed callback as the gateway received it: the raw body and the Standard Webhooks headers. */
export interface RailCallbackRequest {
  connectorId: string;
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string };
  body: string;
}

/**
 * POST /rails/v1/callbacks/{connectorId} (gateway → payments): no platform credential, the Standard Webhooks
 * signature with the connector's secret is the authentication (docs/rails/http-connector.openapi.yaml).
 */
export const RailCallbacksRpc = {
  receive: rawRpc<RailCallbackRequest, { accepted: true }>('payments.rails.callback'),
} as const;
