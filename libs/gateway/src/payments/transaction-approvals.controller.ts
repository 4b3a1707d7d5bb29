import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApprovePaymentRequest, RejectPaymentRequest, Transaction, TransactionApprovalsRpc } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { SCHEMA_REF_PREFIX } from '../openapi/dto-schemas';
import { PAYMENTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const APPROVAL =
  'An incoming UMA payment waits PENDING for the platform\'s answer to its INCOMING_PAYMENT.PENDING webhook. ' +
  'In the sandbox the window is 5 s (× SANDBOX_TIME_SCALE) from its creation; a window that ends unanswered approves it. ' +
  'Any other transaction, or one already approved or rejected, is 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL.';
const APPROVE = `${APPROVAL} Approval lets the payment settle: it completes moments later (INCOMING_PAYMENT.COMPLETED). The body is optional.`;
const REJECT = `${APPROVAL} Rejection fails it at once (failureReason COMPLIANCE_REJECTED, failureDetail REJECTED_BY_PLATFORM, the optional \`reason\` kept as rejectionReason); nothing is credited.`;

/** Approval of incoming payments (published approvePendingPayment / rejectPendingPayment; docs/payments.md). */
@ApiTags('Transactions')
@Controller('transactions/:transactionId')
export class TransactionApprovalsController {
  constructor(@Inject(PAYMENTS_CLIENT) private readonly payments: ServiceClient) {}

  @Post('approve')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiBody({ required: false, schema: { $ref: `${SCHEMA_REF_PREFIX}ApprovePaymentRequest` } })
  @ApiOperationSpec({ summary: 'Approve a pending incoming payment', description: APPROVE, ok: 'IncomingTransaction', errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  approve(@Req() r: AuthenticatedRequest, @Param('transactionId') transactionId: string, @Body() request: ApprovePaymentRequest): Promise<Transaction> {
    return this.payments.call(TransactionApprovalsRpc.approve, { caller: r.caller, body: { transactionId, request } });
  }

  @Post('reject')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiBody({ required: false, schema: { $ref: `${SCHEMA_REF_PREFIX}RejectPaymentRequest` } })
  @ApiOperationSpec({ summary: 'Reject a pending incoming payment', description: REJECT, ok: 'IncomingTransaction', errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  reject(@Req() r: AuthenticatedRequest, @Param('transactionId') transactionId: string, @Body() request: RejectPaymentRequest): Promise<Transaction> {
    return this.payments.call(TransactionApprovalsRpc.reject, { caller: r.caller, body: { transactionId, request } });
  }
}
