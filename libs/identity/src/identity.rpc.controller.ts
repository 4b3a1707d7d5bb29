import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IdentityRpc, PlatformConfig, RpcRequest, UpdatePlatformConfigRequest, VerifiedCredential, VerifyCredentialRequest } from '@payments/contracts';
import { Identity } from './identity';

export const IDENTITY = Symbol('Identity');

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

  @MessagePattern(IdentityRpc.ping)
  async ping(): Promise<string> {
    await this.identity.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
