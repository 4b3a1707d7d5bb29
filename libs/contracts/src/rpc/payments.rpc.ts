import type { Page } from '../pagination';
import type { ListTransactionsQuery, SandboxSendRequest, Transaction, TransferInRequest, TransferOutRequest } from '../transactions';
import { pingRpc } from './rpc';
import { rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the payments service (gateway → payments). */
export const PaymentsRpc = {
  ping: pingRpc('payments.ping'),
  transferIn: rpc<TransferInRequest, Transaction>('payments.transfers.in'),
  transferOut: rpc<TransferOutRequest, Transaction>('payments.transfers.out'),
  listTransactions: rpc<ListTransactionsQuery, Page<Transaction>>('payments.transactions.list'),
  getTransaction: rpc<TransactionIdBody, Transaction>('payments.transactions.get'),
  /** POST /sandbox/send: funds a realtime-funding quote through quoting, then answers its transaction. */
  sandboxSend: sandboxRpc<SandboxSendRequest, Transaction>('payments.sandbox.send'),
} as const;

export interface TransactionIdBody {
  transactionId: string;
}
