import { Controller, Inject } from '@nestjs/common';
import {
  ApiToken,
  CreateTokenRequest,
  DeletedToken,
  DisableWebhookEndpointRequest,
  EmptyBody,
  IdentityRpc,
  ListTokensQuery,
  Page,
  PlatformConfig,
  RpcRequest,
  TokenIdBody,
  UpdatePlatformConfigRequest,
  VerifiedCredential,
  VerifyCredentialRequest,
  WebhookSettings,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import { Identity } from './identity';
import { IDENTITY } from './identity.tokens';

export { IDENTITY } from './identity.tokens';

/** Thin RPC adapter: every handler delegates to the Identity application services. */
@Controller()
export class IdentityRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(IdentityRpc.verifyCredential)
  verifyCredential(request: VerifyCredentialRequest): Promise<VerifiedCredential> {
    return this.identity.credentials.verify(request);
  }

  @Handles(IdentityRpc.getConfig)
  getConfig(request: RpcRequest<EmptyBody>): Promise<PlatformConfig> {
    return this.identity.configs.get(this.identity.host.dataSource.manager, request.caller);
  }

  @Handles(IdentityRpc.updateConfig)
  updateConfig(request: RpcRequest<UpdatePlatformConfigRequest>): Promise<PlatformConfig> {
    return this.identity.configs.update(request.caller, request.body, new Date().toISOString());
  }

  @Handles(IdentityRpc.webhookSettings)
  webhookSettings(request: RpcRequest<EmptyBody>): Promise<WebhookSettings> {
    return this.identity.configs.webhookSettings(this.identity.host.dataSource.manager, request.caller);
  }

  @Handles(IdentityRpc.disableWebhookEndpoint)
  async disableWebhookEndpoint(request: RpcRequest<DisableWebhookEndpointRequest>): Promise<{ ok: true }> {
    await this.identity.configs.disableWebhookEndpoint(request.caller, request.body, new Date().toISOString());
    return { ok: true };
  }

  @Handles(IdentityRpc.createToken)
  createToken(request: RpcRequest<CreateTokenRequest>): Promise<ApiToken> {
    return this.identity.tokens.create(request.caller, request.body, new Date().toISOString());
  }

  @Handles(IdentityRpc.listTokens)
  listTokens(request: RpcRequest<ListTokensQuery>): Promise<Page<ApiToken>> {
    return this.identity.tokens.list(request.caller, request.body);
  }

  @Handles(IdentityRpc.getToken)
  getToken(request: RpcRequest<TokenIdBody>): Promise<ApiToken> {
    return this.identity.tokens.get(request.caller, request.body.tokenId);
  }

  @Handles(IdentityRpc.deleteToken)
  deleteToken(request: RpcRequest<TokenIdBody>): Promise<DeletedToken> {
    return this.identity.tokens.delete(request.caller, request.body.tokenId, new Date().toISOString());
  }

  @Handles(IdentityRpc.ping)
  async ping(): Promise<'pong'> {
    await this.identity.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
