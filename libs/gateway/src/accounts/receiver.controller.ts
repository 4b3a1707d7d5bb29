import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountsRpc, ReceiverLookup, ReceiverLookupQuery } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ACCOUNTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

/** Receiver lookups: what a payment to an account can be sent in, at which estimated rate, within which limits. */
@ApiTags('Cross-Currency Transfers')
@Controller()
export class ReceiverController {
  constructor(@Inject(ACCOUNTS_CLIENT) private readonly accounts: ServiceClient) {}

  @Get('receiver/external-account/:accountId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({
    summary: 'Look up an external account as a receiver',
    description: 'Supported sending currencies with an estimated rate and the platform\'s min/max for each. 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED unless the account is ACTIVE.',
    query: ReceiverLookupQuery,
    ok: 'ReceiverLookup',
    errors: [400, 401, 403, 404, 429, 500, 503],
  })
  lookup(@Req() r: AuthenticatedRequest, @Param('accountId') accountId: string, @Query() query: ReceiverLookupQuery): Promise<ReceiverLookup> {
    return this.accounts.call(AccountsRpc.receiverLookup, { caller: r.caller, body: { accountId, ...query } });
  }
}
