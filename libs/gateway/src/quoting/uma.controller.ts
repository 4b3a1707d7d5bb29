import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListUmaProvidersQuery, Page, QuotingRpc, ReceiverLookupQuery, UmaProvider, UmaReceiverLookup } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const LOOKUP =
  'The currencies a UMA address can be paid in, each with an estimated mid rate from the sending currency and the ' +
  'platform\'s min/max. The sending currency is the customer\'s first currency (`customerId`), else the currency of a ' +
  'sandbox `senderUmaAddress`, else the platform\'s first configured currency. Returns a `lookupId` that a quote to ' +
  'the address names. Sandbox: the receivers `$success.usd|eur|mxn`, `$pending.long.usd` and `$fail.compliance.usd` ' +
  'at `sandbox.uma.money`; any other address is 404 UMA_NOT_FOUND. Production: 501 NOT_IMPLEMENTED (no UMA protocol ' +
  'client in this deployment; sandbox-domain addresses are 404). A malformed address is 400 INVALID_UMA_ADDRESS.';

const PROVIDERS =
  'The UMA provider catalogue, ordered by name, filtered by `countryCode` (a supported region) and `currencyCode`. ' +
  'Providers whose allowListStatus is BLOCKED are left out unless `hasBlockedProviders=true`.';

/** UMA receiver lookups and the provider catalogue (quoting service). */
@ApiTags('Cross-Currency Transfers')
@Controller()
export class UmaController {
  constructor(@Inject(QUOTING_CLIENT) private readonly quoting: ServiceClient) {}

  @Get('receiver/uma/:receiverUmaAddress')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Look up a UMA address as a receiver', description: LOOKUP, query: ReceiverLookupQuery, ok: 'UmaReceiverLookup', errors: [400, 401, 403, 404, 429, 500, 501, 503] })
  lookup(@Req() r: AuthenticatedRequest, @Param('receiverUmaAddress') receiverUmaAddress: string, @Query() query: ReceiverLookupQuery): Promise<UmaReceiverLookup> {
    return this.quoting.call(QuotingRpc.umaLookup, { caller: r.caller, body: { ...query, receiverUmaAddress } });
  }

  @Get('uma-providers')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List UMA providers', description: PROVIDERS, query: ListUmaProvidersQuery, ok: { page: 'UmaProvider' }, errors: [400, 401, 403, 429, 500, 503] })
  providers(@Req() r: AuthenticatedRequest, @Query() query: ListUmaProvidersQuery): Promise<Page<UmaProvider>> {
    return this.quoting.call(QuotingRpc.listUmaProviders, { caller: r.caller, body: query });
  }
}
