import { Controller, Inject } from '@nestjs/common';
import {
  ApprovePaymentBody,
  ListTransactionsQuery,
  Page,
  PaymentsRpc,
  RailCallbackRequest,
  RailCallbacksRpc,
  RejectPaymentBody,
  RpcRequest,
  SandboxSendRequest,
  Transaction,
  TransactionApprovalsRpc,
  TransactionIdBody,
  TransactionLedger,
  TransferInRequest,
  TransferOutRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Payments } from './payments';
import { PAYMENTS } from './payments.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of the payments service. */
@Controller()
export class PaymentsRpcController {
  constructor(@Inject(PAYMENTS) private readonly payments: Payments) {}

  @Handles(PaymentsRpc.transferOut)
  transferOut(r: RpcRequest<TransferOutRequest>): Promise<Transaction> {
    return this.payments.transfers.transferOut(r.caller, r.body, now());
  }

  @Handles(PaymentsRpc.transferIn)
  transferIn(r: RpcRequest<TransferInRequest>): Promise<Transaction> {
    return this.payments.transfers.transferIn(r.caller, r.body, now());
  }

  @Handles(PaymentsRpc.listTransactions)
  list(r: RpcRequest<ListTransactionsQuery>): Promise<Page<Transaction>> {
    return this.payments.transactions.list(r.caller, r.body);
  }

  @Handles(PaymentsRpc.getTransaction)
  get(r: RpcRequest<TransactionIdBody>): Promise<Transaction> {
    return this.payments.transactions.get(r.caller, r.body.transactionId);
  }

  @Handles(PaymentsRpc.getTransactionLedger)
  ledger(r: RpcRequest<TransactionIdBody>): Promise<TransactionLedger> {
    return this.payments.transactions.ledgerOf(r.caller, r.body.transactionId);
  }

  @Handles(TransactionApprovalsRpc.approve)
  approve(r: RpcRequest<ApprovePaymentBody>): Promise<Transaction> {
    return this.payments.approvals.approve(r.caller, r.body.transactionId, r.body.request, now());
  }

  @Handles(TransactionApprovalsRpc.reject)
  reject(r: RpcRequest<RejectPaymentBody>): Promise<Transaction> {
    return this.payments.approvals.reject(r.caller, r.body.transactionId, r.body.request, now());
  }

  @Handles(PaymentsRpc.sandboxSend)
  sandboxSend(r: RpcRequest<SandboxSendRequest>): Promise<Transaction> {
    return this.payments.quoteExecution.sandboxSend(r.caller, r.body, now());
  }

  @Handles(RailCallbacksRpc.receive)
  async railCallback(r: RailCallbackRequest): Promise<{ accepted: true }> {
    await this.payments.rails.callback(r.connectorId, r.headers, r.body);
    return { accepted: true };
  }

  @Handles(PaymentsRpc.ping)
  async ping(): Promise<'pong'> {
    await this.payments.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
