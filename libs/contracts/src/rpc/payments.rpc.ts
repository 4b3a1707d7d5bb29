import type { Page } from '../pagination';
import type { ListTransactionsQuery, SandboxSendRequest, Transaction, TransactionLedger, TransferInRequest, TransferOutRequest } from '../transactions';
import { pingRpc } from './rpc';
import { rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the payments service (gateway → payments). */
export const PaymentsRpc = {
  ping: pingRpc('payments.ping'),
  transferIn: rpc<TransferInRequest, Transaction>('payments.transfers.in'),
  transferOut: rpc<TransferOutRequest, Transaction>('payments.transfers.out'),
  listTransactions: rpc<ListTransactionsQuery, Page<Transaction>>('payments.transactions.list'),
  getTransaction: rpc<TransactionIdBody, Transaction>('payments.transactions.get'),
  /** GET /transactions/{id}/ledger-postings: the transaction's (404 when payments does not know it), then the ledger's postings from accounts. */
  getTransactionLedger: rpc<TransactionIdBody, TransactionLedger>('payments.transactions.ledger'),
  /** POST /sandbox/send: funds a realtime-funding quote through quoting, then answers its transaction. */
  sandboxSend: sandboxRpc<SandboxSendRequest, Transaction>('payments.sandbox.send'),
} as const;

export interface TransactionIdBody {
  transactionId: string;
}
