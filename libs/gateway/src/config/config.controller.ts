import { Body, Controller, Get, Inject, Patch, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IdentityRpc, PlatformConfig, UpdatePlatformConfigRequest } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/** Platform Configuration: GET and PATCH /config, scoped to the caller's platform and mode. */
@ApiTags('Platform Configuration')
@Controller('config')
export class ConfigController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({
    summary: 'Get the platform configuration',
    description: 'The configuration of the calling credential\'s platform in its mode (sandbox or production). Needs VIEW.',
    ok: 'PlatformConfig',
    errors: [401, 403, 429, 500, 503],
  })
  get(@Req() request: AuthenticatedRequest): Promise<PlatformConfig> {
    return this.identity.call(IdentityRpc.getConfig, { caller: request.caller, body: {} });
  }

  @Patch()
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Update the platform configuration',
    description: 'Only the fields sent change; `webhookEndpoint: null` removes the endpoint. Needs MANAGE.',
    body: UpdatePlatformConfigRequest,
    ok: 'PlatformConfig',
    errors: [400, 401, 403, 409, 413, 415, 429, 500, 503],
  })
  update(@Req() request: AuthenticatedRequest, @Body() body: UpdatePlatformConfigRequest): Promise<PlatformConfig> {
    return this.identity.call(IdentityRpc.updateConfig, { caller: request.caller, body });
  }
}
