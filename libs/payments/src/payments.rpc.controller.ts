import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ApprovePaymentRequest,
  ListTransactionsQuery,
  Page,
  PaymentsRpc,
  RejectPaymentRequest,
  RpcRequest,
  SandboxSendRequest,
  Transaction,
  TransactionApprovalsRpc,
  TransferInRequest,
  TransferOutRequest,
} from '@payments/contracts';
import type { Payments } from './payments';
import { PAYMENTS } from './payments.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of the payments service. */
@Controller()
export class PaymentsRpcController {
  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {}

  @MessagePattern(PaymentsRpc.transferOut)
  transferOut(@Payload() r: RpcRequest<TransferOutRequest>): Promise<Transaction> {
    return this.payments.transfers.transferOut(r.caller, r.body, now());
  }

  @MessagePattern(PaymentsRpc.transferIn)
  transferIn(@Payload() r: RpcRequest<TransferInRequest>): Promise<Transaction> {
    return this.payments.transfers.transferIn(r.caller, r.body, now());
  }

  @MessagePattern(PaymentsRpc.listTransactions)
  list(@Payload() r: RpcRequest<ListTransactionsQuery>): Promise<Page<Transaction>> {
    return this.payments.transactions.list(r.caller, r.body);
  }

  @MessagePattern(PaymentsRpc.getTransaction)
  get(@Payload() r: RpcRequest<{ transactionId: string }>): Promise<Transaction> {
    return this.payments.transactions.get(r.caller, r.body.transactionId);
  }

  @MessagePattern(TransactionApprovalsRpc.approve)
  approve(@Payload() r: RpcRequest<{ transactionId: string; request: ApprovePaymentRequest }>): Promise<Transaction> {
    return this.payments.approvals.approve(r.caller, r.body.transactionId, r.body.request, now());
  }

  @MessagePattern(TransactionApprovalsRpc.reject)
  reject(@Payload() r: RpcRequest<{ transactionId: string; request: RejectPaymentRequest }>): Promise<Transaction> {
    return this.payments.approvals.reject(r.caller, r.body.transactionId, r.body.request, now());
  }

  @MessagePattern(PaymentsRpc.sandboxSend)
  sandboxSend(@Payload() r: RpcRequest<SandboxSendRequest>): Promise<Transaction> {
    return this.payments.quoteExecution.sandboxSend(r.caller, r.body, now());
  }

  @MessagePattern(PaymentsRpc.ping)
  async ping(): Promise<string> {
    await this.payments.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
