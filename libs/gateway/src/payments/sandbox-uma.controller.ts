import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InvitationsRpc, SandboxUmaReceiveRequest, Transaction } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { PAYMENTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const RECEIVE =
  'Sandbox: a UMA payment from `senderUmaAddress` arrives for one of the platform\'s customers, named by ' +
  '`receiverUmaAddress` (404 UMA_NOT_FOUND when no customer has it) or by `customerId` (404 USER_NOT_FOUND): exactly ' +
  'one of the two. It credits the customer\'s internal account in `receivingCurrencyCode` (400 INVALID_CURRENCY when ' +
  'the customer has none) with `receivingCurrencyAmount` (smallest unit). Answers the INCOMING transaction, PENDING; ' +
  'it settles moments later (COMPLETED), with INCOMING_PAYMENT webhooks. Production credentials get 404.';

/** POST /sandbox/uma/receive (payments service; docs/invitations.md). */
@ApiTags('Sandbox')
@Controller('sandbox/uma')
export class SandboxUmaController {
  constructor(@Inject(PAYMENTS_CLIENT) private readonly payments: ServiceClient) {}

  @Post('receive')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Sandbox: receive a UMA payment', description: RECEIVE, body: SandboxUmaReceiveRequest, ok: 'IncomingTransaction', okStatus: 200, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  receive(@Req() r: AuthenticatedRequest, @Body() body: SandboxUmaReceiveRequest): Promise<Transaction> {
    return this.payments.call(InvitationsRpc.sandboxUmaReceive, { caller: r.caller, body });
  }
}
