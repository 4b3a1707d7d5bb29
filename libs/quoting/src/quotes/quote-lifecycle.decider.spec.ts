import { given } from '@payments/eventsourcing';
import type { ScaChallenge } from '@payments/contracts';
import { CreateQuote, quoteDecider } from './quote.decider';
import { QuoteEvent } from './quote.events';
import { SCA_ATTEMPTS_MAX } from './authorize-quote.decider';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:01:00.000Z';
const EXPIRES = '2026-01-01T00:05:00.000Z';
const AFTER = '2026-01-01T00:05:00.001Z';
const fees = { gridVariableFeeBps: 50, gridFixedFee: 25, platformVariableFeeBps: 0, platformFixedFee: 0, counterpartyFixedFee: 0 };
const offer = (n: number, expiresAt = '2026-01-01T00:03:00.000Z') => ({ id: `ScaChallenge:${n}`, expiresAt, factor: 'SMS_OTP' as const, availableFactors: ['SMS_OTP' as const, 'PASSKEY' as const], passkeyAssertionOptions: null });

const create = (over: Partial<CreateQuote> = {}): CreateQuote => ({
  type: 'CreateQuote',
  quoteId: 'Quote:1',
  transactionId: 'Transaction:1',
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  customerId: 'Customer:1',
  sendingCurrency: 'USD',
  receivingCurrency: 'EUR',
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  description: null,
  immediatelyExecute: false,
  paymentInstructions: null,
  rate: { midRate: '0.92', sourcePerBtc: '62500' },
  fees,
  limits: { sending: { min: 1, max: 10_000_000 } },
  sca: null,
  now: T0,
  expiresAt: EXPIRES,
  ...over,
});

/** The events a create decides, for use as history. */
function history(over: Partial<CreateQuote> = {}): QuoteEvent[] {
  const decision = quoteDecider.decide(create(over), { status: 'NONE' });
  if (!Array.isArray(decision)) throw new Error('create failed');
  return [...decision];
}

const scaQuote = (purposes = ['CURRENCY_CONVERSION', 'PAYOUT'], over: Partial<CreateQuote> = {}) => history({ sca: { purposes, firstChallenge: offer(1) }, ...over });
const authorize = (over: object = {}) => ({ type: 'AuthorizeQuote' as const, factor: 'SMS_OTP' as const, verification: { ok: true as const }, nextChallenge: offer(2), now: T1, ...over });
const types = (events: readonly QuoteEvent[]) => events.map((e) => e.type);

describe('quote lifecycle', () => {
  it('opens PENDING, executes to PROCESSING with the hand-off event carrying the public quote, and cannot execute twice', () => {
    const [executed] = given(quoteDecider, history()).when({ type: 'ExecuteQuote', now: T1 }).decision as QuoteEvent[];
    expect(executed).toMatchObject({ type: 'QuoteExecuted.v1', data: { quoteId: 'Quote:1', funding: 'ACCOUNT', executedAt: T1, customerId: 'Customer:1', quote: { id: 'Quote:1', status: 'PROCESSING', transactionId: 'Transaction:1', totalSendingAmount: 10_000 } } });
    given(quoteDecider, [...history(), executed]).when({ type: 'ExecuteQuote', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('refuses execution at or after expiresAt, and of a REALTIME_FUNDING quote', () => {
    given(quoteDecider, history()).when({ type: 'ExecuteQuote', now: EXPIRES }).thenFails('QUOTE_EXPIRED');
    const realtime = history({ source: { sourceType: 'REALTIME_FUNDING', customerId: 'Customer:1', currency: 'USD' }, paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT' } }] });
    given(quoteDecider, realtime).when({ type: 'ExecuteQuote', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('immediatelyExecute goes straight to PROCESSING; with REALTIME_FUNDING it is refused', () => {
    expect(types(history({ immediatelyExecute: true }))).toEqual(['QuoteCreated.v1', 'QuoteExecuted.v1']);
    expect(given(quoteDecider, history({ immediatelyExecute: true })).state.status).toBe('PROCESSING');
    given(quoteDecider).when(create({ immediatelyExecute: true, source: { sourceType: 'REALTIME_FUNDING', customerId: 'Customer:1', currency: 'USD' } })).thenFails('INVALID_INPUT');
  });

  it('funds a REALTIME_FUNDING quote in its currency and amount only', () => {
    const realtime = history({ source: { sourceType: 'REALTIME_FUNDING', customerId: 'Customer:1', currency: 'USD' }, paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT' } }] });
    given(quoteDecider, realtime).when({ type: 'FundQuote', currencyCode: 'EUR', now: T1 }).thenFails('INVALID_CURRENCY');
    given(quoteDecider, realtime).when({ type: 'FundQuote', currencyCode: 'USD', amount: 9_999, now: T1 }).thenFails('FUNDING_AMOUNT_MISMATCH');
    given(quoteDecider, realtime).when({ type: 'FundQuote', currencyCode: 'USD', now: AFTER }).thenFails('QUOTE_EXPIRED');
    const [funded] = given(quoteDecider, realtime).when({ type: 'FundQuote', currencyCode: 'USD', amount: 10_000, now: T1 }).decision as QuoteEvent[];
    expect(funded).toMatchObject({ type: 'QuoteExecuted.v1', data: { funding: 'REALTIME_FUNDING', quote: { paymentInstructions: [{ accountOrWalletInfo: { accountType: 'USD_ACCOUNT' } }] } } });
    given(quoteDecider, history()).when({ type: 'FundQuote', currencyCode: 'USD', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('completes or fails from payments, idempotently; a returned payout fails a completed quote', () => {
    const processing = history({ immediatelyExecute: true });
    const [completed] = given(quoteDecider, processing).when({ type: 'CompleteQuote', now: T1 }).decision as QuoteEvent[];
    expect(completed.type).toBe('QuoteCompleted.v1');
    given(quoteDecider, [...processing, completed]).when({ type: 'CompleteQuote', now: T1 }).then([]);
    const [failed] = given(quoteDecider, [...processing, completed]).when({ type: 'FailQuote', failureReason: 'PAYOUT_RETURNED', now: T1 }).decision as QuoteEvent[];
    expect(given(quoteDecider, [...processing, completed, failed]).state).toMatchObject({ status: 'FAILED', failureReason: 'PAYOUT_RETURNED' });
    given(quoteDecider, history()).when({ type: 'CompleteQuote', now: T1 }).thenFails('INVALID_STATE_TRANSITION');
  });

  it('the expiry timer is a no-op once executed', () => {
    given(quoteDecider, history({ immediatelyExecute: true })).when({ type: 'ExpireQuote', now: AFTER }).then([]);
  });
});

describe('quote SCA', () => {
  it('opens PENDING_AUTHORIZATION with the first round challenge; execute and fund wait for it', () => {
    const state = given(quoteDecider, scaQuote()).state;
    expect(state).toMatchObject({ status: 'PENDING_AUTHORIZATION', sca: { round: 0, challenge: { id: 'ScaChallenge:1', purpose: 'CURRENCY_CONVERSION' } } });
    given(quoteDecider, scaQuote()).when({ type: 'ExecuteQuote', now: T1 }).thenFails('SCA_SESSION_REQUIRED');
  });

  it('chains challenges with new ids until the last round, then PENDING (or PROCESSING with immediatelyExecute)', () => {
    const round1 = given(quoteDecider, scaQuote()).when(authorize()).decision as QuoteEvent[];
    expect(types(round1)).toEqual(['ScaChallengeCompleted.v1', 'ScaChallengeIssued.v1']);
    const after1 = given(quoteDecider, [...scaQuote(), ...round1]).state;
    expect(after1).toMatchObject({ status: 'PENDING_AUTHORIZATION', sca: { round: 1, challenge: { id: 'ScaChallenge:2', purpose: 'PAYOUT' } } });
    const round2 = given(quoteDecider, [...scaQuote(), ...round1]).when(authorize({ nextChallenge: offer(3) })).decision as QuoteEvent[];
    expect(types(round2)).toEqual(['ScaChallengeCompleted.v1', 'QuoteAuthorized.v1']);
    expect(given(quoteDecider, [...scaQuote(), ...round1, ...round2]).state.status).toBe('PENDING');
    const immediate = scaQuote(['CURRENCY_CONVERSION'], { immediatelyExecute: true });
    expect(types(given(quoteDecider, immediate).when(authorize()).decision as QuoteEvent[])).toEqual(['ScaChallengeCompleted.v1', 'QuoteAuthorized.v1', 'QuoteExecuted.v1']);
  });

  it('records a failed proof; the fifth failure fails the quote with SCA_NOT_COMPLETED', () => {
    let events = scaQuote();
    for (let i = 1; i < SCA_ATTEMPTS_MAX; i++) {
      const failed = given(quoteDecider, events).when(authorize({ verification: { ok: false, reason: 'wrong code' } })).decision as QuoteEvent[];
      expect(types(failed)).toEqual(['ScaChallengeFailed.v1']);
      events = [...events, ...failed];
    }
    const last = given(quoteDecider, events).when(authorize({ verification: { ok: false, reason: 'wrong code' } })).decision as QuoteEvent[];
    expect(types(last)).toEqual(['ScaChallengeFailed.v1', 'QuoteFailed.v1']);
    expect(given(quoteDecider, [...events, ...last]).state).toMatchObject({ status: 'FAILED', failureReason: 'SCA_NOT_COMPLETED' });
  });

  it('an expired challenge is refused and replaced by a new one of the same round', () => {
    const late = given(quoteDecider, scaQuote()).when(authorize({ now: '2026-01-01T00:03:00.000Z' })).decision as QuoteEvent[];
    expect(types(late)).toEqual(['ScaChallengeExpired.v1', 'ScaChallengeIssued.v1']);
    const state = given(quoteDecider, [...scaQuote(), ...late]).state as { sca: { round: number; challenge: ScaChallenge } };
    expect(state.sca).toMatchObject({ round: 0, challenge: { id: 'ScaChallenge:2', purpose: 'CURRENCY_CONVERSION' } });
  });

  it('refuses a factor the challenge does not offer, authorization after the quote expired, and quotes without SCA', () => {
    const smsOnly = history({ sca: { purposes: ['CURRENCY_CONVERSION'], firstChallenge: { ...offer(1), availableFactors: ['SMS_OTP'] } } });
    given(quoteDecider, smsOnly).when(authorize({ factor: 'PASSKEY' })).thenFails('INVALID_INPUT');
    given(quoteDecider, scaQuote()).when(authorize({ now: EXPIRES })).thenFails('QUOTE_EXPIRED');
    given(quoteDecider, history()).when(authorize()).thenFails('SCA_NOT_REQUIRED');
    given(quoteDecider).when(authorize()).thenFails('QUOTE_NOT_FOUND');
  });

  it('expires while PENDING_AUTHORIZATION', () => {
    given(quoteDecider, scaQuote()).when({ type: 'ExpireQuote', now: AFTER }).then([{ type: 'QuoteExpired.v1', data: { quoteId: 'Quote:1', expiredAt: AFTER } }]);
  });
});
