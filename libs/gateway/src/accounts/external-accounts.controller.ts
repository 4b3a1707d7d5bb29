import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AccountsRpc,
  ConfirmUntrustRequest,
  CreateExternalAccountRequest,
  CreatePlatformExternalAccountRequest,
  ExternalAccount,
  ListExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
  Page,
  UntrustChallenge,
} from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ACCOUNTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const LIFECYCLE =
  'Created PENDING. Sandbox: verified about 2 s later (scaled by SANDBOX_TIME_SCALE): ACTIVE, or UNDER_REVIEW when the beneficiary name check ' +
  'answers NOT_MATCHED (suffix 102) or PARTIAL_MATCH (103); 104 stays PENDING; 105 is a 400 INVALID_BANK_ACCOUNT and nothing is stored. ' +
  'Production accounts stay PENDING until a verification provider answers. Only ACTIVE accounts can receive payments.';

/** External accounts (bank accounts, mobile money, wallets) of customers and of the platform, and trusted beneficiaries. */
@ApiTags('External Accounts')
@Controller()
export class ExternalAccountsController {
  constructor(@Inject(ACCOUNTS_CLIENT) private readonly accounts: ServiceClient) {}

  @Post('customers/external-accounts')
  @HttpCode(201)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Create a customer external account', description: LIFECYCLE, body: CreateExternalAccountRequest, ok: 'ExternalAccount', okStatus: 201, errors: [400, 401, 403, 404, 413, 415, 429, 500, 503] })
  create(@Req() r: AuthenticatedRequest, @Body() body: CreateExternalAccountRequest): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.createExternalAccount, { caller: r.caller, body });
  }

  @Get('customers/external-accounts')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List customer external accounts', query: ListExternalAccountsQuery, ok: { page: 'ExternalAccount' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    return this.accounts.call(AccountsRpc.listExternalAccounts, { caller: r.caller, body: query });
  }

  @Get('customers/external-accounts/:externalAccountId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get an external account', ok: 'ExternalAccount', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('externalAccountId') externalAccountId: string): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.getExternalAccount, { caller: r.caller, body: { externalAccountId } });
  }

  @Delete('customers/external-accounts/:externalAccountId')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Delete an external account (it turns INACTIVE; 409 BENEFICIARY_TRUSTED while a trusted beneficiary)', okStatus: 204, errors: [401, 403, 404, 409, 429, 500, 503] })
  async delete(@Req() r: AuthenticatedRequest, @Param('externalAccountId') externalAccountId: string): Promise<void> {
    await this.accounts.call(AccountsRpc.deleteExternalAccount, { caller: r.caller, body: { externalAccountId } });
  }

  @Post('customers/external-accounts/:externalAccountId/untrust')
  @HttpCode(202)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Begin untrusting a trusted beneficiary (sandbox code 123456, nothing sent); then confirm', ok: 'UntrustChallenge', okStatus: 202, errors: [401, 403, 404, 409, 429, 500, 501, 503] })
  untrust(@Req() r: AuthenticatedRequest, @Param('externalAccountId') externalAccountId: string): Promise<UntrustChallenge> {
    return this.accounts.call(AccountsRpc.beginUntrustExternalAccount, { caller: r.caller, body: { externalAccountId } });
  }

  @Post('customers/external-accounts/:externalAccountId/untrust/confirm')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Confirm the untrust with the SCA code; the account can be deleted again', body: ConfirmUntrustRequest, ok: 'ExternalAccount', okStatus: 200, errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503] })
  confirmUntrust(@Req() r: AuthenticatedRequest, @Param('externalAccountId') externalAccountId: string, @Body() body: ConfirmUntrustRequest): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.confirmUntrustExternalAccount, { caller: r.caller, body: { externalAccountId, code: body.code } });
  }

  @Get('platform/external-accounts')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List the platform external accounts', query: ListPlatformExternalAccountsQuery, ok: { page: 'ExternalAccount' }, errors: [400, 401, 403, 429, 500, 503] })
  listPlatform(@Req() r: AuthenticatedRequest, @Query() query: ListPlatformExternalAccountsQuery): Promise<Page<ExternalAccount>> {
    return this.accounts.call(AccountsRpc.listPlatformExternalAccounts, { caller: r.caller, body: query });
  }

  @Post('platform/external-accounts')
  @HttpCode(201)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Create a platform external account', description: LIFECYCLE, body: CreatePlatformExternalAccountRequest, ok: 'ExternalAccount', okStatus: 201, errors: [400, 401, 403, 413, 415, 429, 500, 503] })
  createPlatform(@Req() r: AuthenticatedRequest, @Body() body: CreatePlatformExternalAccountRequest): Promise<ExternalAccount> {
    return this.accounts.call(AccountsRpc.createPlatformExternalAccount, { caller: r.caller, body });
  }
}
