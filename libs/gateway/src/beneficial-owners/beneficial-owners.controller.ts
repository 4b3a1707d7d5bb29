import { Body, Controller, Get, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BeneficialOwner, BeneficialOwnersRpc, CreateBeneficialOwnerRequest, ListBeneficialOwnersQuery, Page, UpdateBeneficialOwnerRequest } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/** Beneficial owners, directors and officers of business customers: MANAGE for writes, VIEW for reads. */
@ApiTags('KYC/KYB Verifications')
@Controller('beneficial-owners')
export class BeneficialOwnersController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  @Post()
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Add a beneficial owner, director or officer to a business customer',
    description: 'BUSINESS customers only (400 for an individual). The owners of one business hold at most 100 % together. Verified automatically when the business is decided.',
    body: CreateBeneficialOwnerRequest,
    ok: 'BeneficialOwner',
    okStatus: 201,
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503],
  })
  create(@Req() r: AuthenticatedRequest, @Body() body: CreateBeneficialOwnerRequest): Promise<BeneficialOwner> {
    return this.identity.call(BeneficialOwnersRpc.create, { caller: r.caller, body });
  }

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List the beneficial owners of a business customer', query: ListBeneficialOwnersQuery, ok: { page: 'BeneficialOwner' }, errors: [400, 401, 403, 404, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListBeneficialOwnersQuery): Promise<Page<BeneficialOwner>> {
    return this.identity.call(BeneficialOwnersRpc.list, { caller: r.caller, body: query });
  }

  @Get(':beneficialOwnerId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a beneficial owner', ok: 'BeneficialOwner', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('beneficialOwnerId') beneficialOwnerId: string): Promise<BeneficialOwner> {
    return this.identity.call(BeneficialOwnersRpc.get, { caller: r.caller, body: { beneficialOwnerId } });
  }

  @Patch(':beneficialOwnerId')
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Update a beneficial owner (only the fields sent)',
    body: UpdateBeneficialOwnerRequest,
    ok: 'BeneficialOwner',
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503],
  })
  update(@Req() r: AuthenticatedRequest, @Param('beneficialOwnerId') beneficialOwnerId: string, @Body() patch: UpdateBeneficialOwnerRequest): Promise<BeneficialOwner> {
    return this.identity.call(BeneficialOwnersRpc.update, { caller: r.caller, body: { beneficialOwnerId, patch } });
  }
}
