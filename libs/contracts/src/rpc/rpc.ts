import type { OperatorPrincipal } from '../operator/operator';
import type { PlatformConfig, UpdatePlatformConfigRequest } from '../config';
import type { Page } from '../pagination';
import type { ApiToken, CreateTokenRequest, ListTokensQuery } from '../tokens.dto';
import { rawRpc, rpc } from './rpc-contract';
import type { DisableWebhookEndpointRequest, WebhookSettings } from './webhooks.rpc';

/** Who is calling: resolved by the gateway from the credential, passed with every RPC (tenancy scope). */
export type Mode = 'SANDBOX' | 'PRODUCTION';
export const MODES: readonly Mode[] = ['SANDBOX', 'PRODUCTION'];

export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';
export const PERMISSIONS: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

export interface CallerContext {
  platformId: string;
  mode: Mode;
  clientId: string;
  permissions: readonly Permission[];
  /** W3C trace context and a correlation id, carried into event metadata. */
  correlationId?: string;
  /**
   * The request's Idempotency-Key (set by the gateway on POSTs that carry one) and the hash of the request, so the
   * service that owns the effect claims the key in the transaction of the effect (IdempotencyClaims).
   */
  idempotency?: { key: string; requestHash: string };
  /** Set when an agent's bearer token authenticated the request (Agent Operations): the agent and its customer. */
  agent?: { agentId: string; customerId: string };
  /** Set when an operator's credentials authenticated the request (the operator API, /operator/v1): who and their role. */
  operator?: OperatorPrincipal;
}

export interface RpcRequest<TBody = unknown> {
  caller: CallerContext;
  body: TBody;
}

/** A body with nothing in it: the operation reads only the caller (`body: {}` on the wire). */
export type EmptyBody = Record<string, never>;

/** A health ping's payload (`{}`, no caller) and answer. */
export const pingRpc = (pattern: string) => rawRpc<EmptyBody, 'pong'>(pattern);

/** RPC contracts (`@nestjs/microservices` message patterns), one per operation: `<service>.<resource>.<verb>`. */
export const IdentityRpc = {
  verifyCredential: rawRpc<VerifyCredentialRequest, VerifiedCredential>('identity.credentials.verify'),
  getConfig: rpc<EmptyBody, PlatformConfig>('identity.config.get'),
  updateConfig: rpc<UpdatePlatformConfigRequest, PlatformConfig>('identity.config.update'),
  createToken: rpc<CreateTokenRequest, ApiToken>('identity.tokens.create'),
  listTokens: rpc<ListTokensQuery, Page<ApiToken>>('identity.tokens.list'),
  getToken: rpc<TokenIdBody, ApiToken>('identity.tokens.get'),
  deleteToken: rpc<TokenIdBody, DeletedToken>('identity.tokens.delete'),
  /** Dispatcher only: endpoint, keys and secret of the caller's platform and mode (WebhookSettings). */
  webhookSettings: rpc<EmptyBody, WebhookSettings>('identity.config.webhook-settings'),
  /** Dispatcher only: the endpoint answered 410 Gone (DisableWebhookEndpointRequest). */
  disableWebhookEndpoint: rpc<DisableWebhookEndpointRequest, { ok: true }>('identity.config.webhook-endpoint.disable'),
  ping: pingRpc('identity.ping'),
} as const;

/** IdentityRpc.getToken and deleteToken. */
export interface TokenIdBody {
  tokenId: string;
}

/** IdentityRpc.deleteToken: the client id of the deleted token (the gateway drops its cached credential). */
export interface DeletedToken {
  clientId: string;
}

export interface VerifyCredentialRequest {
  clientId: string;
  clientSecret: string;
}

export interface VerifiedCredential {
  clientId: string;
  platformId: string;
  mode: Mode;
  permissions: Permission[];
}
