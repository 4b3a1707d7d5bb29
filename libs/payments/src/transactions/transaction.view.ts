import type { CurrencyAmount, Transaction } from '@payments/contracts';
import { currencyObject } from '@payments/money';
import type { Amount } from './transaction.events';
import type { ExistingTransaction } from './transaction.state';

/** The public IncomingTransaction / OutgoingTransaction (spec: Transactions; interop §6.1). */
export function toTransaction(s: ExistingTransaction): Transaction {
  const base = {
    id: s.transactionId,
    status: s.status,
    direction: s.direction,
    customerId: s.customerId,
    platformCustomerId: s.platformCustomerId ?? null,
    source: s.source,
    destination: s.destination,
    sentAmount: money(s.sentAmount),
    receivedAmount: money(s.receivedAmount),
    fees: s.fees,
    exchangeRate: s.exchangeRate,
    quoteId: s.quoteId,
    description: s.description,
    reconciliationInstructions: { reference: s.reference },
    failureReason: s.failureReason,
    refund: s.refund,
    ...(s.unresolvedFunds ? { unresolvedFunds: s.unresolvedFunds } : {}),
    settledAt: s.settledAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.type === 'INCOMING') return { type: 'INCOMING', ...base };
  return {
    type: 'OUTGOING',
    ...base,
    platformFees: s.platformFees,
    paymentRail: s.paymentRail,
    railSelectionMode: s.railSelectionMode,
    expectedSettlementAt: s.expectedSettlementAt,
    settlementTimelineSeconds: s.settlementTimelineSeconds,
    rateDetails: s.rateDetails,
  };
}

const money = (a: Amount): CurrencyAmount => ({ amount: a.amount, currency: currencyObject(a.currency) });
