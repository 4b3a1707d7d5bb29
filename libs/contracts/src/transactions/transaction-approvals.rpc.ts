import { rpc } from '../rpc/rpc-contract';
import type { ApprovePaymentRequest, RejectPaymentRequest, Transaction } from './transactions.dto';

/**
 * RPC contracts of the approval of incoming payments (gateway → payments): POST /transactions/{id}/approve and
 * /reject. Answer: the IncomingTransaction.
 */
export const TransactionApprovalsRpc = {
  approve: rpc<ApprovePaymentBody, Transaction>('payments.transactions.approve'),
  reject: rpc<RejectPaymentBody, Transaction>('payments.transactions.reject'),
} as const;

export interface ApprovePaymentBody {
  transactionId: string;
  request: ApprovePaymentRequest;
}

export interface RejectPaymentBody {
  transactionId: string;
  request: RejectPaymentRequest;
}
