import type { TransactionFailureReason } from '@payments/contracts';
import { transferInPlan, transferOutPlan } from '../saga/ledger-plan';
import { sandboxPayoutScript } from '../saga/rail-script';
import type { ExistingTransaction } from './transaction.state';
import { toTransaction } from './transaction.view';

const ID = 'Transaction:0190f5a0-0000-7000-8000-000000000001';
const T0 = '2026-01-01T00:00:00.000Z';
const state = (over: Partial<ExistingTransaction> = {}): ExistingTransaction => ({
  transactionId: ID, platformId: 'Platform:1', mode: 'SANDBOX', type: 'OUTGOING', direction: 'DEBIT', customerId: 'Customer:1', platformCustomerId: 'pc-1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  sentAmount: { amount: 1_000, currency: 'USD' }, receivedAmount: { amount: 1_000, currency: 'USD' }, fees: 0, platformFees: 0, exchangeRate: 1,
  quoteId: null, description: null, paymentRail: null, railSelectionMode: null, settlementTimelineSeconds: null, expectedSettlementAt: null, rateDetails: null,
  reference: 'REF', plan: transferOutPlan(ID, 'InternalAccount:1', 1_000, 'USD'), rail: sandboxPayoutScript(null), createdAt: T0,
  status: 'PENDING', failureReason: null, refund: null, unresolvedFunds: null, settledAt: null, updatedAt: T0, ...over,
});
const incoming = (over: Partial<ExistingTransaction> = {}) => state({ type: 'INCOMING', direction: 'CREDIT', plan: transferInPlan('InternalAccount:1', 1_000, 'USD'), ...over });

describe('the public transaction view', () => {
  it('leaves out optional fields without a value; only the published nullable ones are null', () => {
    const outgoing = toTransaction(state()) as unknown as Record<string, unknown>;
    for (const key of ['quoteId', 'description', 'failureReason', 'failureDetail', 'refund', 'settledAt', 'rateDetails', 'unresolvedFunds', 'rejectionReason']) expect(outgoing).not.toHaveProperty(key);
    expect(Object.keys(outgoing).filter((key) => outgoing[key] === null).sort()).toEqual(['expectedSettlementAt', 'paymentRail', 'railSelectionMode', 'settlementTimelineSeconds']);
    const view = toTransaction(incoming()) as unknown as Record<string, unknown>;
    expect(Object.keys(view).filter((key) => view[key] === null)).toEqual([]);
    expect(toTransaction(state({ quoteId: 'Quote:1', description: 'memo', settledAt: T0, rateDetails: { counterpartyMultiplier: 1 } }))).toMatchObject({ quoteId: 'Quote:1', description: 'memo', settledAt: T0, rateDetails: { counterpartyMultiplier: 1 } });
  });

  it.each<[string, TransactionFailureReason, string, string | undefined]>([
    ['OUTGOING', 'INSUFFICIENT_FUNDS', 'QUOTE_EXECUTION_FAILED', 'INSUFFICIENT_FUNDS'],
    ['OUTGOING', 'RAIL_NOT_AVAILABLE', 'QUOTE_EXECUTION_FAILED', 'RAIL_NOT_AVAILABLE'],
    ['OUTGOING', 'ACCOUNT_CLOSED', 'ACCOUNT_INVALID', 'ACCOUNT_CLOSED'],
    ['OUTGOING', 'PAYOUT_RETURNED', 'PAYOUT_RETURNED', undefined],
    ['OUTGOING', 'COMPLIANCE_REJECTED', 'COMPLIANCE_REJECTED', undefined],
    ['INCOMING', 'INSUFFICIENT_FUNDS', 'COLLECTION_FAILED', 'INSUFFICIENT_FUNDS'],
    ['INCOMING', 'ACCOUNT_CLOSED', 'COLLECTION_FAILED', 'ACCOUNT_CLOSED'],
    ['INCOMING', 'ACCOUNT_INVALID', 'COLLECTION_FAILED', 'ACCOUNT_INVALID'],
    ['INCOMING', 'REJECTED_BY_PLATFORM', 'COMPLIANCE_REJECTED', 'REJECTED_BY_PLATFORM'],
    ['INCOMING', 'COLLECTION_FAILED', 'COLLECTION_FAILED', undefined],
    ['INCOMING', 'PAYOUT_RETURNED', 'QUOTE_EXECUTION_FAILED', 'PAYOUT_RETURNED'],
  ])('%s %s shows failureReason %s (failureDetail %s)', (type, reason, published, detail) => {
    const s = type === 'INCOMING' ? incoming({ status: 'FAILED', failureReason: reason }) : state({ status: 'FAILED', failureReason: reason });
    const view = toTransaction(s);
    expect(view.failureReason).toBe(published);
    expect(view.failureDetail).toBe(detail);
  });
});
