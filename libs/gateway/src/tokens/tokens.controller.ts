import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiToken, CreateTokenRequest, IdentityRpc, ListTokensQuery, Page } from '@payments/contracts';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { CredentialCache } from '../auth/credential-cache';
import { ServiceClient } from '../rpc/service-client';

/** API Tokens. Every operation needs MANAGE: tokens are credentials. */
@ApiTags('API Tokens')
@Controller('tokens')
export class TokensController {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient,
    private readonly cache: CredentialCache,
  ) {}

  @Post()
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Create an API token (its secret is shown only in this response)', body: CreateTokenRequest, ok: 'ApiToken', okStatus: 201, errors: [400, 401, 403, 413, 415, 429, 500, 503] })
  create(@Req() request: AuthenticatedRequest, @Body() body: CreateTokenRequest): Promise<ApiToken> {
    return this.identity.call(IdentityRpc.createToken, { caller: request.caller, body });
  }

  @Get()
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'List API tokens', query: ListTokensQuery, ok: { page: 'ApiToken' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() request: AuthenticatedRequest, @Query() query: ListTokensQuery): Promise<Page<ApiToken>> {
    return this.identity.call(IdentityRpc.listTokens, { caller: request.caller, body: query });
  }

  @Get(':tokenId')
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Get an API token', ok: 'ApiToken', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() request: AuthenticatedRequest, @Param('tokenId') tokenId: string): Promise<ApiToken> {
    return this.identity.call(IdentityRpc.getToken, { caller: request.caller, body: { tokenId } });
  }

  /** 204; this gateway forgets the credential at once, the others when TokenDeleted.v1 reaches them. */
  @Delete(':tokenId')
  @HttpCode(204)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({ summary: 'Delete an API token; it stops working at once', okStatus: 204, errors: [401, 403, 404, 429, 500, 503] })
  async delete(@Req() request: AuthenticatedRequest, @Param('tokenId') tokenId: string): Promise<void> {
    const { clientId } = await this.identity.call<{ clientId: string }>(IdentityRpc.deleteToken, { caller: request.caller, body: { tokenId } });
    this.cache.forgetClient(clientId);
  }
}
