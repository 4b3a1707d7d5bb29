import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccountsRpc, FundInternalAccountRequest, InternalAccount, ListInternalAccountsQuery, ListPlatformInternalAccountsQuery, Page } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ACCOUNTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

/** Internal accounts (held balances) of customers and of the platform, and sandbox funding. */
@ApiTags('Internal Accounts')
@Controller()
export class InternalAccountsController {
  constructor(@Inject(ACCOUNTS_CLIENT) private readonly accounts: ServiceClient) {}

  @Get('customers/internal-accounts')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List customer internal accounts', query: ListInternalAccountsQuery, ok: { page: 'InternalAccount' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListInternalAccountsQuery): Promise<Page<InternalAccount>> {
    return this.accounts.call(AccountsRpc.listCustomerInternalAccounts, { caller: r.caller, body: query });
  }

  @Get('platform/internal-accounts')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List the platform internal accounts', query: ListPlatformInternalAccountsQuery, ok: 'InternalAccountList', errors: [400, 401, 403, 429, 500, 503] })
  listPlatform(@Req() r: AuthenticatedRequest, @Query() query: ListPlatformInternalAccountsQuery): Promise<{ data: InternalAccount[] }> {
    return this.accounts.call(AccountsRpc.listPlatformInternalAccounts, { caller: r.caller, body: query });
  }

  @Post('sandbox/internal-accounts/:accountId/fund')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Sandbox: credit an internal account through the ledger', body: FundInternalAccountRequest, ok: 'InternalAccount', okStatus: 200, errors: [400, 401, 403, 404, 429, 500, 503] })
  fund(@Req() r: AuthenticatedRequest, @Param('accountId') accountId: string, @Body() body: FundInternalAccountRequest): Promise<InternalAccount> {
    return this.accounts.call(AccountsRpc.sandboxFund, { caller: r.caller, body: { accountId, amount: body.amount } });
  }
}
