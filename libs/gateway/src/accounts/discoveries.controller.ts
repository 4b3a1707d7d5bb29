import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DiscoveriesQuery, DiscoveriesRpc, Discovery } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ACCOUNTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

/** Banks and wallets an external account can name (`bankName`), from the accounts service's catalogue. */
@ApiTags('Discoveries')
@Controller('discoveries')
export class DiscoveriesController {
  constructor(@Inject(ACCOUNTS_CLIENT) private readonly accounts: ServiceClient) {}

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Discover institutions by country and currency (all when both are absent)', query: DiscoveriesQuery, ok: 'DiscoveryList', errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: DiscoveriesQuery): Promise<{ data: Discovery[] }> {
    return this.accounts.call(DiscoveriesRpc.list, { caller: r.caller, body: query });
  }
}
