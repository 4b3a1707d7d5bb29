import { given } from '@payments/eventsourcing';
import { cardTransactionDecider } from './card-transaction.decider';
import { effectsOf } from './card-transaction.effects';
import { AppliedData, CardTransactionEvent, CardTransactionTerms, NetworkMessage } from './card-transaction.events';
import { OpenCardTransaction, statusOf } from './card-transaction.state';

const at = '2026-11-24T10:00:00.000Z';
const terms = (over: Partial<CardTransactionTerms> = {}): CardTransactionTerms => ({
  transactionId: 'CardTransaction:1',
  cardId: 'Card:1',
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  customerId: 'Customer:1',
  platformCustomerId: 'p-1',
  currency: 'USD',
  kind: 'AUTHORIZATION',
  direction: 'DEBIT',
  amount: 1000,
  merchant: { descriptor: 'COFFEE' },
  issuerTransactionToken: 'itx_1',
  pullPlan: 'NOW',
  receivedAt: at,
  ...over,
});
const received = (over: Partial<CardTransactionTerms> = {}): CardTransactionEvent => ({ type: 'CardAuthorizationReceived.v1', data: terms(over) });
const authorized = (pullStatus: 'PENDING' | 'CONFIRMED' | 'FAILED' = 'CONFIRMED'): CardTransactionEvent[] => [
  received(),
  { type: 'CardTransactionAuthorized.v1', data: { accountId: 'InternalAccount:a', fundingSourceId: 'CardFundingSource:a', pull: { n: 1, amount: 1000, status: pullStatus, fromHold: true }, settled: 0, credited: 0, at } },
];
const message = (n: number, kind: NetworkMessage['kind'], amount: number): CardTransactionEvent => ({ type: 'CardNetworkMessageReceived.v1', data: { n, kind, amount, issuerTransactionToken: `itx_${n}`, at } });
const applied = (data: Partial<AppliedData> & { n: number }): CardTransactionEvent => ({ type: 'CardNetworkMessageApplied.v1', data: { pulls: [], settled: 0, released: 0, credited: 0, at, ...data } });
const open = (history: CardTransactionEvent[]) => given(cardTransactionDecider, history).state as OpenCardTransaction;
const receive = (kind: NetworkMessage['kind'], amount: number) => ({ type: 'ReceiveMessage' as const, message: { kind, amount, issuerTransactionToken: 'itx_m', at } });
const settledFully = [...authorized(), message(2, 'CLEARING', 1000), applied({ n: 2, settled: 1000 })];

describe('card transaction decider', () => {
  it('an authorization is told with its view; a decline opens nothing and says why', () => {
    const events = given(cardTransactionDecider, [received()]).when({ type: 'Authorize', authorized: (authorized()[1].data as never) }).decision as CardTransactionEvent[];
    expect(events.map((e) => e.type)).toEqual(['CardTransactionAuthorized.v1', 'CardTransactionUpdated.v1']);
    expect(events[1].data).toMatchObject({ transaction: { type: 'CARD', status: 'AUTHORIZED', authorizedAmount: { amount: 1000 }, pullSummary: { count: 1, totalAmount: 1000, pendingCount: 0 } } });
    const declined = given(cardTransactionDecider, [received()]).when({ type: 'Decline', reason: 'CARD_PAUSED', at }).decision as CardTransactionEvent[];
    expect(declined).toEqual([{ type: 'CardAuthorizationDeclined.v1', data: expect.objectContaining({ reason: 'CARD_PAUSED', amount: 1000, issuerTransactionToken: 'itx_1' }) }]);
    given(cardTransactionDecider, [received(), ...declined]).when({ type: 'Authorize', authorized: authorized()[1].data as never }).then([]);
  });

  it('derives the status from the amounts', () => {
    expect(open(authorized()).status).toBe('AUTHORIZED');
    expect(open(authorized('FAILED')).status).toBe('EXCEPTION');
    expect(open([...authorized(), message(2, 'CLEARING', 400), applied({ n: 2, settled: 400 })]).status).toBe('PARTIALLY_SETTLED');
    expect(open(settledFully).status).toBe('SETTLED');
    expect(open([...settledFully, message(3, 'RETURN', 300), applied({ n: 3, refund: { n: 1, amount: 300 } })]).status).toBe('SETTLED');
    expect(open([...settledFully, message(3, 'RETURN', 1000), applied({ n: 3, refund: { n: 1, amount: 1000 } })]).status).toBe('REFUNDED');
    expect(open([...authorized(), message(2, 'EXPIRY', 0), applied({ n: 2, released: 1000, closedReason: 'AUTHORIZATION_EXPIRY' })]).status).toBe('SETTLED');
    expect(statusOf({ ...open(settledFully), reversalFailed: true })).toBe('EXCEPTION');
  });

  it('takes one network message at a time, numbered after the last', () => {
    given(cardTransactionDecider, authorized()).when(receive('CLEARING', 500)).then([message(2, 'CLEARING', 500)].map((e) => ({ ...e, data: { ...(e.data as object), issuerTransactionToken: 'itx_m' } })) as CardTransactionEvent[]);
    given(cardTransactionDecider, [...authorized(), message(2, 'CLEARING', 500)]).when(receive('CLEARING', 500)).thenFails('CONFLICT');
    // Applying the pending message once; a repeat of the same step appends nothing.
    const history = [...authorized(), message(2, 'CLEARING', 500)];
    expect((given(cardTransactionDecider, history).when({ type: 'ApplyMessage', applied: applied({ n: 2, settled: 500 }).data as AppliedData }).decision as CardTransactionEvent[]).map((e) => e.type)).toEqual(['CardNetworkMessageApplied.v1', 'CardTransactionUpdated.v1']);
    given(cardTransactionDecider, [...history, applied({ n: 2, settled: 500 })]).when({ type: 'ApplyMessage', applied: applied({ n: 2, settled: 500 }).data as AppliedData }).then([]);
  });

  it('refuses messages that do not fit the transaction', () => {
    given(cardTransactionDecider, settledFully).when(receive('CLEARING', 10)).thenFails('INVALID_STATE_TRANSITION');
    given(cardTransactionDecider, authorized()).when(receive('RETURN', 10)).thenFails('INVALID_STATE_TRANSITION');
    given(cardTransactionDecider, settledFully).when(receive('RETURN', 1001)).thenFails('INVALID_INPUT');
    given(cardTransactionDecider, settledFully).when(receive('RETURN_REVERSAL', 0)).thenFails('INVALID_STATE_TRANSITION');
    given(cardTransactionDecider, [...authorized(), message(2, 'CLEARING', 400), applied({ n: 2, settled: 400 })]).when(receive('ADVICE', 399)).thenFails('INVALID_INPUT');
    given(cardTransactionDecider, authorized('FAILED')).when(receive('CLEARING', 10)).thenFails('INVALID_STATE_TRANSITION');
    given(cardTransactionDecider, [received()]).when(receive('CLEARING', 10)).thenFails('CARD_TRANSACTION_NOT_FOUND');
    // The card's close reconciling a transaction that is no longer open is not an error.
    given(cardTransactionDecider, settledFully).when({ ...receive('EXPIRY', 0), reconcile: true }).then([]);
    // While a message is being applied the close's expiry waits for it (CONFLICT), and is recorded once it is.
    const clearing = [...authorized(), message(2, 'CLEARING', 400)];
    given(cardTransactionDecider, clearing).when({ ...receive('EXPIRY', 0), reconcile: true }).thenFails('CONFLICT');
    given(cardTransactionDecider, [...clearing, applied({ n: 2, settled: 400 })]).when({ ...receive('EXPIRY', 0), reconcile: true }).then([{ ...message(3, 'EXPIRY', 0), data: { n: 3, kind: 'EXPIRY', amount: 0, issuerTransactionToken: 'itx_m', at } } as CardTransactionEvent]);
  });

  it('a delayed pull completes once', () => {
    const pending = authorized('PENDING');
    const events = given(cardTransactionDecider, pending).when({ type: 'CompletePull', n: 1, status: 'CONFIRMED', at }).decision as CardTransactionEvent[];
    expect(events[1].data).toMatchObject({ transaction: { pullSummary: { count: 1, totalAmount: 1000, pendingCount: 0 } } });
    given(cardTransactionDecider, [...pending, ...events]).when({ type: 'CompletePull', n: 1, status: 'FAILED', at }).then([]);
  });
});

describe('card network message effects', () => {
  const m = (kind: NetworkMessage['kind'], amount: number): NetworkMessage => ({ n: 2, kind, amount, issuerTransactionToken: 'itx', at });

  it('a clearing within the authorization settles; above it, the difference is pulled after the fact by the descriptor plan', () => {
    const within = effectsOf(open(authorized()), m('CLEARING', 600));
    expect(within.settle).toBe(600);
    expect(within.newPull).toBeUndefined();
    expect(effectsOf(open(authorized()), m('CLEARING', 1500))).toMatchObject({ settle: 1500, newPull: { n: 2, amount: 500, plan: 'NOW' } });
    const later = open([received({ pullPlan: 'LATER' }), authorized()[1]]);
    expect(effectsOf(later, m('CLEARING', 1200)).newPull).toEqual({ n: 2, amount: 200, plan: 'LATER' });
  });

  it('an expiry gives back what was pulled and not settled, and cancels a pull still pending', () => {
    const partly = open([...authorized(), message(2, 'CLEARING', 400), applied({ n: 2, settled: 400 })]);
    expect(effectsOf(partly, m('EXPIRY', 0))).toMatchObject({ release: 600, closedReason: 'AUTHORIZATION_EXPIRY', cancelPending: [] });
    const pending = open(authorized('PENDING'));
    expect(effectsOf(pending, m('EXPIRY', 0))).toMatchObject({ release: 0, cancelPending: [{ n: 1, status: 'PENDING' }] });
  });

  it('an advice pulls more or gives back the difference', () => {
    expect(effectsOf(open(authorized()), m('ADVICE', 1300))).toMatchObject({ authorizedAmount: 1300, newPull: { amount: 300 } });
    expect(effectsOf(open(authorized()), m('ADVICE', 700))).toMatchObject({ authorizedAmount: 700, release: 300 });
    // Partly settled: never below what settled, and only what is left to settle of the new amount stays.
    const partly = open([...authorized(), message(2, 'CLEARING', 400), applied({ n: 2, settled: 400 })]);
    expect(effectsOf({ ...partly, nextN: 3 }, { ...m('ADVICE', 500), n: 3 })).toMatchObject({ authorizedAmount: 500, release: 500 });
  });

  it('an advice down gives back only what was pulled: the pending pull is made and recorded first, a failed one took nothing', () => {
    // 1,000 pulled, 500 more pending (a 005 advice up); the advice down to 100 needs that pull made first.
    const upEvents = [...authorized(), message(2, 'ADVICE', 1500), applied({ n: 2, authorizedAmount: 1500, newPull: { n: 2, amount: 500, status: 'PENDING', fromHold: false } })];
    const down = { ...m('ADVICE', 100), n: 3 };
    expect(effectsOf(open(upEvents), down).confirmPending).toEqual([{ n: 2, amount: 500, status: 'PENDING', fromHold: false }]);
    const completed = (status: 'CONFIRMED' | 'FAILED') => open([...upEvents, { type: 'CardPullCompleted.v1', data: { n: 2, status, at } }]);
    expect(effectsOf(completed('FAILED'), down)).toMatchObject({ confirmPending: [], authorizedAmount: 100, release: 900 });
    expect(effectsOf(completed('CONFIRMED'), down)).toMatchObject({ confirmPending: [], authorizedAmount: 100, release: 1400 });
    // Still above what was pulled: nothing goes back.
    expect(effectsOf(completed('FAILED'), { ...m('ADVICE', 1200), n: 3 }).release).toBe(0);
    expect(effectsOf(completed('CONFIRMED'), { ...m('ADVICE', 1200), n: 3 }).release).toBe(300);
  });

  it('returns refund, reversals take back the latest unreversed return; credits are paid when they clear', () => {
    expect(effectsOf(open(settledFully), m('RETURN', 300)).refund).toEqual({ n: 1, amount: 300 });
    const refunded = open([...settledFully, message(3, 'RETURN', 1000), applied({ n: 3, refund: { n: 1, amount: 1000 } })]);
    expect(effectsOf(refunded, m('RETURN_REVERSAL', 0)).reverseRefund).toEqual({ n: 1, amount: 1000 });
    const credit = open([received({ direction: 'CREDIT', kind: 'CREDIT' }), { type: 'CardTransactionAuthorized.v1', data: { accountId: 'InternalAccount:a', fundingSourceId: 'CardFundingSource:a', settled: 0, credited: 0, at } }]);
    expect(effectsOf(credit, m('CLEARING', 800))).toMatchObject({ settle: 800, credit: 800 });
  });
});
