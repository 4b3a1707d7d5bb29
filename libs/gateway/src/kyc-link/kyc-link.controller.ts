import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CreateKycLinkRequest, KycLink, KycLinksRpc } from '@payments/contracts';
import { AuthenticatedRequest, IDENTITY_CLIENT, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { ServiceClient } from '../rpc/service-client';

/** Where clients reach this gateway (PUBLIC_URL); unset, the request's own scheme and Host are used. */
export const KYC_LINK_ORIGIN = Symbol('KycLinkOrigin');
export interface KycLinkOrigin {
  publicUrl?: string;
}

@ApiTags('Customers')
@Controller('customers')
export class KycLinkController {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: ServiceClient,
    @Inject(KYC_LINK_ORIGIN) private readonly origin: KycLinkOrigin,
  ) {}

  @Post(':customerId/kyc-link')
  @HttpCode(200)
  @RequirePermission('MANAGE')
  @ApiOperationSpec({
    summary: 'Create a single-use hosted KYC link',
    description:
      'The link (`kycUrl`) opens the hosted verification page once, for 24 hours; then the user is sent to `redirectUri` when one was given. ' +
      'It does not change kycStatus. 409 until every contact channel the customer must verify (email and phone in the EU/EEA) is VERIFIED. ' +
      'An Idempotency-Key replay returns the same link. Needs MANAGE.',
    body: CreateKycLinkRequest,
    ok: 'KycLink',
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503],
  })
  create(@Req() request: AuthenticatedRequest, @Param('customerId') customerId: string, @Body() body: CreateKycLinkRequest): Promise<KycLink> {
    const publicOrigin = this.origin.publicUrl ?? requestOrigin(request);
    // The body is optional: a POST without one arrives as undefined, which spreads to nothing.
    return this.identity.call(KycLinksRpc.create, { caller: request.caller, body: { ...body, customerId, publicOrigin } });
  }
}

/** The link goes back to the authenticated caller who sent this Host, so trusting it here leaks nothing to others. */
function requestOrigin(request: Request): string {
  return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}
