import { given } from '@payments/eventsourcing';
import { transferInPlan, transferOutPlan } from '../saga/ledger-plan';
import { sandboxPayoutScript } from '../saga/rail-script';
import { CreateTransaction, transactionDecider } from './transaction.decider';
import { TransactionEvent, TransactionTerms } from './transaction.events';

const ID = 'Transaction:0190f5a0-0000-7000-8000-000000000001';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:02.000Z';

const terms = (over: Partial<TransactionTerms> = {}): TransactionTerms => ({
  transactionId: ID, platformId: 'Platform:1', mode: 'SANDBOX', type: 'OUTGOING', direction: 'DEBIT', customerId: 'Customer:1',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' }, destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  sentAmount: { amount: 1_000, currency: 'USD' }, receivedAmount: { amount: 1_000, currency: 'USD' }, fees: 0, platformFees: 0, exchangeRate: 1,
  quoteId: null, description: null, paymentRail: 'ACH', railSelectionMode: 'AUTO', settlementTimelineSeconds: 2, expectedSettlementAt: T1, rateDetails: null,
  reference: 'REF', plan: transferOutPlan(ID, 'InternalAccount:1', 1_000, 'USD'), rail: sandboxPayoutScript(null), createdAt: T0, ...over,
});
const create = (over: Partial<CreateTransaction> = {}): CreateTransaction => ({ type: 'CreateTransaction', terms: terms(), status: 'PENDING', failureReason: null, ...over });
const created = (): TransactionEvent[] => given(transactionDecider).when(create()).decision as TransactionEvent[];
const held = (): TransactionEvent[] => [...created(), ...(given(transactionDecider, created()).when({ type: 'RecordFundsHeld', now: T1 }).decision as TransactionEvent[])];
const statusChange = (events: readonly TransactionEvent[]) => [...events].reverse().find((e) => e.type === 'TransactionStatusChanged.v1')!.data as { transaction: Record<string, any>; previousStatus: string | null };

describe('transaction decider', () => {
  it('creates a transaction PENDING and publishes its view with previousStatus null', () => {
    const events = created();
    expect(events.map((e) => e.type)).toEqual(['TransactionCreated.v1', 'TransactionStatusChanged.v1']);
    expect(statusChange(events)).toMatchObject({ previousStatus: null, transaction: { id: ID, status: 'PENDING', type: 'OUTGOING', sentAmount: { amount: 1_000, currency: { code: 'USD' } }, reconciliationInstructions: { reference: 'REF' } } });
  });

  it('creating an existing transaction changes nothing (quote execution and /sandbox/send both ensure it)', () => {
    given(transactionDecider, created()).when(create()).then([]);
  });

  it('moves PENDING to PROCESSING once the funds are held, then COMPLETED with settledAt', () => {
    expect(statusChange(held()).transaction.status).toBe('PROCESSING');
    const done = given(transactionDecider, held()).when({ type: 'CompleteTransaction', now: T1 }).decision as TransactionEvent[];
    expect(statusChange(done)).toMatchObject({ previousStatus: 'PROCESSING', transaction: { status: 'COMPLETED', settledAt: T1 } });
    given(transactionDecider, [...held(), ...done]).when({ type: 'CompleteTransaction', now: T1 }).then([]);
  });

  it('refuses to complete a held transaction whose funds are not held yet', () => {
    given(transactionDecider, created()).when({ type: 'CompleteTransaction', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('completes a pull from PENDING: nothing to hold', () => {
    const pull = given(transactionDecider).when(create({ terms: terms({ type: 'INCOMING', plan: transferInPlan('InternalAccount:1', 1_000, 'USD') }) })).decision as TransactionEvent[];
    const done = given(transactionDecider, pull).when({ type: 'CompleteTransaction', now: T1 }).decision as TransactionEvent[];
    expect(statusChange(done).transaction).toMatchObject({ type: 'INCOMING', status: 'COMPLETED' });
  });

  it('fails with a reason; failing again changes nothing; a failed one cannot hold or complete', () => {
    const failed = [...created(), ...(given(transactionDecider, created()).when({ type: 'FailTransaction', now: T1, failureReason: 'INSUFFICIENT_FUNDS', refund: null, unresolvedFunds: null }).decision as TransactionEvent[])];
    expect(given(transactionDecider, failed).state).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
    given(transactionDecider, failed).when({ type: 'FailTransaction', now: T1, failureReason: 'INSUFFICIENT_FUNDS', refund: null, unresolvedFunds: null }).then([]);
    given(transactionDecider, failed).when({ type: 'RecordFundsHeld', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
    given(transactionDecider, failed).when({ type: 'CompleteTransaction', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('a COMPLETED transaction turns FAILED only when its payout is returned', () => {
    const fail = { type: 'FailTransaction', now: T1, failureReason: 'PAYOUT_RETURNED', refund: null, unresolvedFunds: null } as const;
    const completed = (rail = sandboxPayoutScript(null)) => {
      const c = given(transactionDecider).when(create({ terms: terms({ rail }) })).decision as TransactionEvent[];
      const h = given(transactionDecider, c).when({ type: 'RecordFundsHeld', now: T1 }).decision as TransactionEvent[];
      const d = given(transactionDecider, [...c, ...h]).when({ type: 'CompleteTransaction', now: T1 }).decision as TransactionEvent[];
      return [...c, ...h, ...d];
    };
    given(transactionDecider, completed()).when(fail).thenFails('INVALID_STATE_TRANSITION');
    const returned = given(transactionDecider, completed(sandboxPayoutScript('005'))).when(fail).decision as TransactionEvent[];
    expect(statusChange(returned)).toMatchObject({ previousStatus: 'COMPLETED', transaction: { status: 'FAILED', failureReason: 'PAYOUT_RETURNED' } });
  });

  describe('an incoming UMA payment awaiting the platform\'s approval', () => {
    const uma = () => create({ terms: terms({ type: 'INCOMING', direction: 'CREDIT', awaitsPlatformApproval: true, plan: transferInPlan('InternalAccount:1', 1_000, 'USD') }) });
    const awaiting = () => given(transactionDecider).when(uma()).decision as TransactionEvent[];

    it('cannot complete before it is approved; approval keeps it PENDING without a status change, then it completes', () => {
      given(transactionDecider, awaiting()).when({ type: 'CompleteTransaction', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
      const approved = given(transactionDecider, awaiting()).when({ type: 'ApproveTransaction', now: T1, by: 'PLATFORM' }).decision as TransactionEvent[];
      expect(approved.map((e) => e.type)).toEqual(['TransactionApproved.v1']);
      expect(given(transactionDecider, [...awaiting(), ...approved]).state).toMatchObject({ status: 'PENDING', approvedAt: T1 });
      given(transactionDecider, [...awaiting(), ...approved]).when({ type: 'ApproveTransaction', now: T1, by: 'APPROVAL_WINDOW' }).thenFails('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
      const done = given(transactionDecider, [...awaiting(), ...approved]).when({ type: 'CompleteTransaction', now: T1 }).decision as TransactionEvent[];
      expect(statusChange(done).transaction).toMatchObject({ status: 'COMPLETED' });
    });

    it('rejection fails it with REJECTED_BY_PLATFORM (published COMPLIANCE_REJECTED) and the platform\'s reason; then nothing more to decide', () => {
      const rejected = given(transactionDecider, awaiting()).when({ type: 'RejectTransaction', now: T1, reason: 'RESTRICTED_JURISDICTION' }).decision as TransactionEvent[];
      expect(statusChange(rejected)).toMatchObject({ previousStatus: 'PENDING', transaction: { status: 'FAILED', failureReason: 'COMPLIANCE_REJECTED', failureDetail: 'REJECTED_BY_PLATFORM', rejectionReason: 'RESTRICTED_JURISDICTION' } });
      given(transactionDecider, [...awaiting(), ...rejected]).when({ type: 'ApproveTransaction', now: T1, by: 'PLATFORM' }).thenFails('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
      given(transactionDecider, [...awaiting(), ...rejected]).when({ type: 'RejectTransaction', now: T1 }).thenFails('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
    });

    it('a transaction that never awaited approval cannot be approved or rejected', () => {
      given(transactionDecider, created()).when({ type: 'ApproveTransaction', now: T1, by: 'PLATFORM' }).thenFails('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
      given(transactionDecider, created()).when({ type: 'RejectTransaction', now: T1 }).thenFails('TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL');
      given(transactionDecider).when({ type: 'ApproveTransaction', now: T1, by: 'PLATFORM' }).thenFails('TRANSACTION_NOT_FOUND');
    });
  });

  it('answers TRANSACTION_NOT_FOUND for steps of a transaction that does not exist', () => {
    given(transactionDecider).when({ type: 'RecordFundsHeld', now: T1 }).thenFails('TRANSACTION_NOT_FOUND');
  });
});
