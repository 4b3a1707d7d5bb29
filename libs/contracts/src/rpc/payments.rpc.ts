/** RPC patterns of the payments service (gateway → payments). */
export const PaymentsRpc = {
  ping: 'payments.ping',
  transferIn: 'payments.transfers.in',
  transferOut: 'payments.transfers.out',
  listTransactions: 'payments.transactions.list',
  getTransaction: 'payments.transactions.get',
  /** POST /sandbox/send: funds a realtime-funding quote through quoting, then answers its transaction. */
  sandboxSend: 'payments.sandbox.send',
} as const;
