import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateVerificationRequest, ListVerificationsQuery, Page, Verification, VerificationsRpc } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

const SUBMIT_DESCRIPTION = [
  'Submits the customer for KYC (individual) or KYB (business); repeat after fixing `errors`.',
  'Incomplete inputs: RESOLVE_ERRORS with one error per missing input and its `resourceId`.',
  'Complete: IN_PROGRESS and kycStatus/kybStatus PENDING; the sandbox decides about 5 s later (scaled by SANDBOX_TIME_SCALE),',
  'production waits in PENDING_MANUAL_REVIEW. 409 while a decision is pending, 400 once APPROVED or REJECTED.',
].join(' ');

/** KYC/KYB verifications: MANAGE to submit, VIEW to read. */
@ApiTags('KYC/KYB Verifications')
@Controller('verifications')
export class VerificationsController {
  constructor(@Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient) {}

  @Post()
  @HttpCode(200) // published: 200, not 201
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Submit a customer for verification',
    description: SUBMIT_DESCRIPTION,
    body: CreateVerificationRequest,
    ok: 'Verification',
    okStatus: 200,
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503],
  })
  submit(@Req() r: AuthenticatedRequest, @Body() body: CreateVerificationRequest): Promise<Verification> {
    return this.identity.call(VerificationsRpc.submit, { caller: r.caller, body });
  }

  @Get()
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List verifications (filters: customerId, status)', query: ListVerificationsQuery, ok: { page: 'Verification' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListVerificationsQuery): Promise<Page<Verification>> {
    return this.identity.call(VerificationsRpc.list, { caller: r.caller, body: query });
  }

  @Get(':verificationId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a verification', ok: 'Verification', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('verificationId') verificationId: string): Promise<Verification> {
    return this.identity.call(VerificationsRpc.get, { caller: r.caller, body: { verificationId } });
  }
}
