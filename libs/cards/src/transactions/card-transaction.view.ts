import type { CardTransaction } from '@payments/contracts';
import { currencyObject } from '@payments/money';
import { confirmedPulled, OpenCardTransaction, refundedAmount } from './card-transaction.state';

/** The card transaction as GET /transactions shows it (type CARD), with its pull, settlement and refund roll-ups. */
export function toCardTransaction(s: OpenCardTransaction): CardTransaction {
  const amount = (value: number) => ({ amount: value, currency: currencyObject(s.currency) });
  const refunds = s.refunds.filter((r) => !r.reversed);
  return {
    type: 'CARD',
    id: s.transactionId,
    cardId: s.cardId,
    customerId: s.customerId,
    platformCustomerId: s.platformCustomerId,
    issuerTransactionToken: s.issuerTransactionToken,
    status: s.status,
    direction: s.direction,
    merchant: s.merchant,
    authorizedAmount: amount(s.authorizedAmount),
    ...(s.settlementCount > 0 || s.closedReason ? { settledAmount: amount(s.settled) } : {}),
    ...(s.refunds.length > 0 ? { refundedAmount: amount(refundedAmount(s)) } : {}),
    accountId: s.accountId,
    pullSummary: { count: s.pulls.length, totalAmount: confirmedPulled(s), pendingCount: s.pulls.filter((p) => p.status === 'PENDING').length },
    refundSummary: { count: refunds.length, totalAmount: refundedAmount(s) },
    settlementSummary: { count: s.settlementCount, totalAmount: s.settled },
    ...(s.closedReason ? { closedReason: s.closedReason } : {}),
    authorizedAt: s.authorizedAt,
    lastEventAt: s.lastEventAt,
    createdAt: s.receivedAt,
    updatedAt: s.updatedAt,
  };
}
