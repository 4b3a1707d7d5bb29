import { Body, Controller, Get, Inject, Patch, Req } from '@nestjs/common';
import { IdentityRpc, PlatformConfig, UpdatePlatformConfigRequest } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ServiceClient } from '../rpc/service-client';

/** Platform Configuration: GET and PATCH /config, scoped to the caller's platform and mode. */
@Controller('config')
export class ConfigController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  @Get()
  @RequirePermission('VIEW')
  get(@Req() request: AuthenticatedRequest): Promise<PlatformConfig> {
    return this.identity.call(IdentityRpc.getConfig, { caller: request.caller, body: {} });
  }

  @Patch()
  @RequirePermission('MANAGE')
  update(@Req() request: AuthenticatedRequest, @Body() body: UpdatePlatformConfigRequest): Promise<PlatformConfig> {
    return this.identity.call(IdentityRpc.updateConfig, { caller: request.caller, body });
  }
}
