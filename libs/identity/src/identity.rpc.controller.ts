import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApiToken,
  CreateTokenRequest,
  DisableWebhookEndpointRequest,
  IdentityRpc,
  ListTokensQuery,
  Page,
  PlatformConfig,
  RpcRequest,
  UpdatePlatformConfigRequest,
  VerifiedCredential,
  VerifyCredentialRequest,
  WebhookSettings,
} from '@payments/contracts';
import { Identity } from './identity';
import { IDENTITY } from './identity.tokens';

export { IDENTITY } from './identity.tokens';

/** Thin RPC adapter: every handler delegates to the Identity application services. */
@Controller()
export class IdentityRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @MessagePattern(IdentityRpc.verifyCredential)
  verifyCredential(@Payload() request: VerifyCredentialRequest): Promise<VerifiedCredential> {
    return this.identity.credentials.verify(request);
  }

  @MessagePattern(IdentityRpc.getConfig)
  getConfig(@Payload() request: RpcRequest): Promise<PlatformConfig> {
    return this.identity.configs.get(this.identity.host.dataSource.manager, request.caller);
  }

  @MessagePattern(IdentityRpc.updateConfig)
  updateConfig(@Payload() request: RpcRequest<UpdatePlatformConfigRequest>): Promise<PlatformConfig> {
    return this.identity.configs.update(request.caller, request.body, new Date().toISOString());
  }

  @MessagePattern(IdentityRpc.webhookSettings)
  webhookSettings(@Payload() request: RpcRequest): Promise<WebhookSettings> {
    return this.identity.configs.webhookSettings(this.identity.host.dataSource.manager, request.caller);
  }

  @MessagePattern(IdentityRpc.disableWebhookEndpoint)
  async disableWebhookEndpoint(@Payload() request: RpcRequest<DisableWebhookEndpointRequest>): Promise<{ ok: true }> {
    await this.identity.configs.disableWebhookEndpoint(request.caller, request.body, new Date().toISOString());
    return { ok: true };
  }

  @MessagePattern(IdentityRpc.createToken)
  createToken(@Payload() request: RpcRequest<CreateTokenRequest>): Promise<ApiToken> {
    return this.identity.tokens.create(request.caller, request.body, new Date().toISOString());
  }

  @MessagePattern(IdentityRpc.listTokens)
  listTokens(@Payload() request: RpcRequest<ListTokensQuery>): Promise<Page<ApiToken>> {
    return this.identity.tokens.list(request.caller, request.body);
  }

  @MessagePattern(IdentityRpc.getToken)
  getToken(@Payload() request: RpcRequest<{ tokenId: string }>): Promise<ApiToken> {
    return this.identity.tokens.get(request.caller, request.body.tokenId);
  }

  @MessagePattern(IdentityRpc.deleteToken)
  deleteToken(@Payload() request: RpcRequest<{ tokenId: string }>): Promise<{ clientId: string }> {
    return this.identity.tokens.delete(request.caller, request.body.tokenId, new Date().toISOString());
  }

  @MessagePattern(IdentityRpc.ping)
  async ping(): Promise<string> {
    await this.identity.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
