import type { Mode } from '../rpc/rpc';
import type { PaymentTransaction, TransactionStatus } from './transactions.dto';

/**
 * The payments topic's contract for every status change of a transaction, its creation included: the public view
 * after the change. Quoting settles quotes from it (by `transaction.quoteId`); the webhook dispatcher turns it into
 * OUTGOING_PAYMENT.<status> / INCOMING_PAYMENT.<status>. Declared (public) in PAYMENTS_EVENTS (libs/contracts/src/events).
 */
export const TRANSACTION_STATUS_CHANGED_EVENT = 'TransactionStatusChanged.v1';

export interface TransactionStatusChangedData {
  /** Only payments' own transactions: card transactions travel as the cards service's CardTransactionUpdated.v1. */
  transaction: PaymentTransaction;
  previousStatus: TransactionStatus | null;
  /** The credential mode the transaction belongs to (the view does not show it; consumers such as webhooks need it). */
  mode: Mode;
}
