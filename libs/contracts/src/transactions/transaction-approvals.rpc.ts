/**
 * RPC patterns of the approval of incoming payments (gateway → payments): POST /transactions/{id}/approve and /reject.
 * Body: `{ transactionId, request }` with ApprovePaymentRequest / RejectPaymentRequest; answer: the IncomingTransaction.
 */
export const TransactionApprovalsRpc = {
  approve: 'payments.transactions.approve',
  reject: 'payments.transactions.reject',
} as const;
