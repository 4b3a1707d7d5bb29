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
}

export interface RpcRequest<TBody = unknown> {
  caller: CallerContext;
  body: TBody;
}

/** RPC message patterns (`@nestjs/microservices`), one constant per operation: `<service>.<resource>.<verb>`. */
export const IdentityRpc = {
  verifyCredential: 'identity.credentials.verify',
  getConfig: 'identity.config.get',
  updateConfig: 'identity.config.update',
  createToken: 'identity.tokens.create',
  listTokens: 'identity.tokens.list',
  getToken: 'identity.tokens.get',
  deleteToken: 'identity.tokens.delete',
  /** Dispatcher only: endpoint, keys and secret of the caller's platform and mode (WebhookSettings). */
  webhookSettings: 'identity.config.webhook-settings',
  /** Dispatcher only: the endpoint answered 410 Gone (DisableWebhookEndpointRequest). */
  disableWebhookEndpoint: 'identity.config.webhook-endpoint.disable',
  ping: 'identity.ping',
} as const;

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
