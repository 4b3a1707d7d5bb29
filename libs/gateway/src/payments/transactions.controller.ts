import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListTransactionsQuery, Page, PaymentsRpc, SandboxSendRequest, Transaction } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { PAYMENTS_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const SEND =
  'Sandbox: simulates the arrival of the funds of a realtime-funding quote (`currencyAmount` defaults to the quote\'s ' +
  'totalSendingAmount). Answers the quote\'s transaction, PROCESSING, which then completes or fails by the destination\'s ' +
  'sandbox suffix. Production credentials get 404.';

/** Transactions (the spec leaves the paths open: GET /transactions, GET /transactions/{transactionId}; docs/payments.md). */
@ApiTags('Transactions')
@Controller()
export class TransactionsController {
  constructor(@Inject(PAYMENTS_CLIENT) private readonly payments: ServiceClient) {}

  @Get('transactions')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'List transactions', description: 'Filters combine; `accountId` matches the source or the destination; `startDate` ≤ createdAt < `endDate`; newest first unless `sortOrder=asc`.', query: ListTransactionsQuery, ok: { page: 'Transaction' }, errors: [400, 401, 403, 429, 500, 503] })
  list(@Req() r: AuthenticatedRequest, @Query() query: ListTransactionsQuery): Promise<Page<Transaction>> {
    return this.payments.call(PaymentsRpc.listTransactions, { caller: r.caller, body: query });
  }

  @Get('transactions/:transactionId')
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Get a transaction', ok: 'Transaction', errors: [401, 403, 404, 429, 500, 503] })
  get(@Req() r: AuthenticatedRequest, @Param('transactionId') transactionId: string): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.getTransaction, { caller: r.caller, body: { transactionId } });
  }

  @Post('sandbox/send')
  @HttpCode(200)
  @RequirePermission('TRANSACT')
  @ApiOperationSpec({ summary: 'Sandbox: fund a realtime-funding quote', description: SEND, body: SandboxSendRequest, ok: 'OutgoingTransaction', okStatus: 200, errors: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] })
  send(@Req() r: AuthenticatedRequest, @Body() body: SandboxSendRequest): Promise<Transaction> {
    return this.payments.call(PaymentsRpc.sandboxSend, { caller: r.caller, body });
  }
}
