import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PaymentsRpc, Transaction, TransferInRequest, TransferOutRequest } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { PAYMENTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const OUT =
  'Pays out from an internal account to an ACTIVE external account of the same currency (else 400 CURRENCY_MISMATCH). ' +
  'The amount is held at once: without enough available balance the transaction is created FAILED with failureReason ' +
  'INSUFFICIENT_FUNDS (still 201). The rail then settles it (COMPLETED) or fails it and releases the hold. Sandbox only ' +
  'for now: production answers 501 NOT_IMPLEMENTED and nothing moves. Send an Idempotency-Key to retry safely.';
const IN =
  'Pulls funds from a pull-capable (ACH) external account into an internal account of the same currency: PENDING until ' +
  'the pull settles (COMPLETED, credited) or fails. Sandbox only for now (production: 501 NOT_IMPLEMENTED).';

/** Same-currency transfers (docs/payments.md). */
@ApiTags('Same-Currency Transfers')
@Controller()
export class TransfersController {
  constructor(@Inject(PAYMENTS_CLIENT) private readonly payments: ServiceClient) {}

  @Post('transfer-out')
  @HttpCode(201)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Transfer to an external account', description: OUT, body: TransferOutRequest, ok: 'OutgoingTransaction', okStatus: 201, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 501, 503] })
  transferOut(@Req() r: AuthenticatedRequest, @Body() body: TransferOutRequest): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.transferOut, { caller: r.caller, body });
  }

  @Post('transfer-in')
  @HttpCode(201)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Transfer from an external account', description: IN, body: TransferInRequest, ok: 'IncomingTransaction', okStatus: 201, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 501, 503] })
  transferIn(@Req() r: AuthenticatedRequest, @Body() body: TransferInRequest): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.transferIn, { caller: r.caller, body });
  }
}
