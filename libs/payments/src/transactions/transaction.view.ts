import {
  CurrencyAmount,
  INCOMING_FAILURE_REASONS,
  IncomingFailureReason,
  OUTGOING_FAILURE_REASONS,
  OutgoingFailureReason,
  PaymentTransaction,
  TransactionFailureReason,
  TransactionType,
} from '@payments/contracts';
import { currencyObject } from '@payments/money';
import type { Amount } from './transaction.events';
import type { ExistingTransaction } from './transaction.state';

/**
 * The public IncomingTransaction / OutgoingTransaction (spec: Transactions; interop §6.1), the one place the API shape
 * is made: optional fields without a value are left out (only the published nullable ones, `paymentRail`,
 * `railSelectionMode`, `expectedSettlementAt` and `settlementTimelineSeconds`, are sent as null).
 */
export function toTransaction(s: ExistingTransaction): PaymentTransaction {
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
    ...present({ quoteId: s.quoteId, description: s.description }),
    reconciliationInstructions: { reference: s.reference },
    ...present({ refund: s.refund, unresolvedFunds: s.unresolvedFunds, rejectionReason: s.rejectionReason, settledAt: s.settledAt }),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
  if (s.type === 'INCOMING') return { type: 'INCOMING', ...base, ...failureOf<IncomingFailureReason>('INCOMING', s.failureReason, s.railCode) };
  return {
    type: 'OUTGOING',
    ...base,
    ...failureOf<OutgoingFailureReason>('OUTGOING', s.failureReason, s.railCode),
    platformFees: s.platformFees,
    paymentRail: s.paymentRail,
    railSelectionMode: s.railSelectionMode,
    expectedSettlementAt: s.expectedSettlementAt,
    settlementTimelineSeconds: s.settlementTimelineSeconds,
    ...present({ rateDetails: s.rateDetails }),
  };
}

/**
 * Our failure reasons the published enum of the type lacks, and the published reason shown for them (ours is then
 * `failureDetail`); any other reason outside the enum shows as QUOTE_EXECUTION_FAILED, which both enums have.
 */
const COARSER: Record<TransactionType, Partial<Record<TransactionFailureReason, IncomingFailureReason | OutgoingFailureReason>>> = {
  INCOMING: { INSUFFICIENT_FUNDS: 'COLLECTION_FAILED', ACCOUNT_CLOSED: 'COLLECTION_FAILED', ACCOUNT_INVALID: 'COLLECTION_FAILED', REJECTED_BY_PLATFORM: 'COMPLIANCE_REJECTED' },
  OUTGOING: { ACCOUNT_CLOSED: 'ACCOUNT_INVALID' },
};
const PUBLISHED: Record<TransactionType, readonly string[]> = { INCOMING: INCOMING_FAILURE_REASONS, OUTGOING: OUTGOING_FAILURE_REASONS };

/** The rail's own code (R01, AC04…), when a rail failed it, is the finer detail. */
function failureOf<R extends string>(type: TransactionType, reason: TransactionFailureReason | null, railCode?: string): { failureReason?: R; failureDetail?: string } {
  if (!reason) return {};
  if (PUBLISHED[type].includes(reason)) return { failureReason: reason as R, ...(railCode ? { failureDetail: railCode } : {}) };
  return { failureReason: (COARSER[type][reason] ?? 'QUOTE_EXECUTION_FAILED') as R, failureDetail: railCode ?? reason };
}

/** The entries that have a value. */
function present<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}

const money = (a: Amount): CurrencyAmount => ({ amount: a.amount, currency: currencyObject(a.currency) });
