import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ClaimInvitationRequest, CreateInvitationRequest, InvitationsRpc, UmaInvitation } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { PAYMENTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const CREATE =
  'Invites someone to UMA on behalf of one of the platform\'s customers, named by `inviterUma` (its UMA address; 400 ' +
  'INVALID_UMA_ADDRESS when malformed, 404 USER_NOT_FOUND when no customer of this platform has it). `amountToSend` is ' +
  'in the smallest unit of `currency` (one of the inviter\'s currencies, default its first; else 400 INVALID_CURRENCY). ' +
  '`expiresAt` defaults to 30 days, must be in the future and within 365 days; the invitation turns EXPIRED then. ' +
  'Answers the PENDING invitation with its unguessable `code` and shareable `url`.';
const SHARED =
  'Invitation codes are shared with the invitee\'s platform: any platform of the same mode (sandbox or production) ' +
  'can read and claim by code; the other mode, or an unknown code, is 404 INVITATION_NOT_FOUND.';
const CLAIM =
  `${SHARED} Associates the invitee's UMA address with a PENDING invitation and sends INVITATION_CLAIMED to the ` +
  'platform that created it. 400 INVITATION_ALREADY_CLAIMED, INVITATION_CANCELLED or INVITATION_EXPIRED otherwise; ' +
  '400 SELF_PAYMENT when the invitee is the inviter; 400 INVALID_UMA_ADDRESS for a malformed address.';
const CANCEL =
  'Cancels a PENDING invitation. Only the platform that created it may (another platform of the mode: 403 FORBIDDEN; ' +
  'the other mode: 404). A claimed, cancelled or expired invitation: 400 INVITATION_ALREADY_CLAIMED, ' +
  'INVITATION_CANCELLED or INVITATION_EXPIRED.';

/** UMA invitations (payments service; docs/invitations.md). */
@ApiTags('Invitations')
@Controller('invitations')
export class InvitationsController {
  constructor(@Inject(PAYMENTS_CLIENT) private readonly payments: ServiceClient) {}

  @Post()
  @HttpCode(201)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Create a UMA invitation', description: CREATE, body: CreateInvitationRequest, ok: 'UmaInvitation', okStatus: 201, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  create(@Req() r: AuthenticatedRequest, @Body() body: CreateInvitationRequest): Promise<UmaInvitation> {
    return this.payments.call(InvitationsRpc.create, { caller: r.caller, body });
  }

  @Get(':invitationCode')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get an invitation', description: SHARED, ok: 'UmaInvitation', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('invitationCode') code: string): Promise<UmaInvitation> {
    return this.payments.call(InvitationsRpc.get, { caller: r.caller, body: { code } });
  }

  @Post(':invitationCode/claim')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Claim an invitation', description: CLAIM, body: ClaimInvitationRequest, ok: 'UmaInvitation', okStatus: 200, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  claim(@Req() r: AuthenticatedRequest, @Param('invitationCode') code: string, @Body() body: ClaimInvitationRequest): Promise<UmaInvitation> {
    return this.payments.call(InvitationsRpc.claim, { caller: r.caller, body: { code, inviteeUma: body.inviteeUma } });
  }

  @Post(':invitationCode/cancel')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Cancel an invitation', description: CANCEL, ok: 'UmaInvitation', okStatus: 200, errors: [400, 401, 403, 404, 409, 429, 500, 503] })
  cancel(@Req() r: AuthenticatedRequest, @Param('invitationCode') code: string): Promise<UmaInvitation> {
    return this.payments.call(InvitationsRpc.cancel, { caller: r.caller, body: { code } });
  }
}
