import { given } from '@payments/eventsourcing';
import { priceFxQuote } from '@payments/money';
import { CreateQuote, quoteDecider } from './quote.decider';
import { QuoteCreated, QuoteEvent } from './quote.events';
import { toQuote } from './quote.view';

const T0 = '2026-01-01T00:00:00.000Z';
const EXPIRES = '2026-01-01T00:05:00.000Z';
const LATER = '2026-01-01T00:05:00.200Z';
const fees = { gridVariableFeeBps: 50, gridFixedFee: 25, platformVariableFeeBps: 0, platformFixedFee: 0, counterpartyFixedFee: 0 };

const create = (over: Partial<CreateQuote> = {}): CreateQuote => ({
  type: 'CreateQuote',
  quoteId: 'Quote:0190f5a0-0000-7000-8000-000000000001',
  transactionId: 'Transaction:0190f5a0-0000-7000-8000-000000000002',
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' },
  destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:1' },
  customerId: 'Customer:1',
  sendingCurrency: 'USD',
  receivingCurrency: 'EUR',
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 10_000,
  description: 'rent',
  immediatelyExecute: false,
  paymentInstructions: null,
  sca: null,
  rate: { midRate: '0.92', sourcePerBtc: '62500' },
  fees,
  limits: { sending: { min: 1, max: 10_000_000 } },
  now: T0,
  expiresAt: EXPIRES,
  ...over,
});

function created(over: Partial<CreateQuote> = {}): QuoteCreated {
  const c = create(over);
  const priced = priceFxQuote({ sendingCurrency: c.sendingCurrency, receivingCurrency: c.receivingCurrency, midRate: c.rate.midRate, sendingPerBtc: c.rate.sourcePerBtc, fees: c.fees, lockedCurrencySide: c.lockedCurrencySide, lockedCurrencyAmount: c.lockedCurrencyAmount });
  if (!priced.ok) throw new Error(priced.error.message);
  const p = priced.value;
  return {
    type: 'QuoteCreated.v1',
    data: {
      quoteId: c.quoteId, platformId: c.platformId, mode: c.mode, transactionId: c.transactionId,
      source: c.source, destination: c.destination,
      customerId: c.customerId, sendingCurrency: c.sendingCurrency, receivingCurrency: c.receivingCurrency,
      lockedCurrencySide: c.lockedCurrencySide, lockedCurrencyAmount: c.lockedCurrencyAmount,
      totalSendingAmount: p.totalSendingAmount, totalReceivingAmount: p.totalReceivingAmount, exchangeRate: p.exchangeRate,
      feesIncluded: p.feesIncluded, platformFeesIncluded: p.platformFeesIncluded, rateDetails: p.rateDetails,
      midRate: c.rate.midRate, description: c.description, immediatelyExecute: c.immediatelyExecute,
      paymentInstructions: c.paymentInstructions, scaPurposes: c.sca?.purposes ?? [], createdAt: c.now, expiresAt: c.expiresAt,
    },
  };
}

const expired: QuoteEvent = { type: 'QuoteExpired.v1', data: { quoteId: create().quoteId, expiredAt: LATER } };

describe('quote decider', () => {
  it('prices a SENDING-locked quote with priceFxQuote and opens it PENDING', () => {
    const [event] = given(quoteDecider).when(create()).then([created()]) as QuoteCreated[];
    // 10000 cents: 50 bps (50) + 25 fixed = 75 in fees; 9925 × 0.92 = 9131 euro cents.
    expect(event.data).toMatchObject({ totalSendingAmount: 10_000, feesIncluded: 75, platformFeesIncluded: 0, totalReceivingAmount: 9131 });
    expect(given(quoteDecider, [event]).state.status).toBe('PENDING');
  });

  it('locks the RECEIVING side: the smallest sending amount that delivers it', () => {
    const [event] = given(quoteDecider).when(create({ lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 9131 })).then([created({ lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 9131 })]) as QuoteCreated[];
    expect(event.data.totalReceivingAmount).toBeGreaterThanOrEqual(9131);
    expect(event.data.totalSendingAmount).toBeLessThanOrEqual(10_000);
  });

  it('keeps the pricing record (source, publication time) with the terms, and out of the public quote', () => {
    const pricing = { source: 'OPERATOR_TABLE', sourceCurrency: 'USD', destinationCurrency: 'EUR', midRate: '0.92', derivation: 'DIRECT', publishedAt: T0, validUntil: EXPIRES, entryId: 'RateEntry:1', sourcePerBtc: '62500', btcReference: 'OPERATOR_TABLE' } as const;
    const expected = created();
    const [event] = given(quoteDecider).when(create({ pricing })).then([{ ...expected, data: { ...expected.data, pricing } }]) as QuoteCreated[];
    const state = given(quoteDecider, [event]).state;
    expect(state.status === 'PENDING' && state.pricing).toEqual(pricing);
    expect(state.status === 'PENDING' && toQuote(state)).not.toHaveProperty('pricing');
  });

  it('refuses a second create of the same quote', () => {
    given(quoteDecider, [created()]).when(create()).thenFails('CONFLICT');
  });

  it('refuses same-currency quotes', () => {
    given(quoteDecider).when(create({ receivingCurrency: 'USD' })).thenFails('SAME_CURRENCY');
  });

  it('enforces the platform limits on the sending amount, and on the receiving one when configured', () => {
    given(quoteDecider).when(create({ limits: { sending: { min: 1, max: 9_999 } } })).thenFails('AMOUNT_OUT_OF_RANGE');
    given(quoteDecider).when(create({ limits: { sending: { min: 10_001, max: 20_000 } } })).thenFails('AMOUNT_OUT_OF_RANGE');
    given(quoteDecider).when(create({ limits: { sending: { min: 1, max: 10_000_000 }, receiving: { min: 1, max: 9_000 } } })).thenFails('AMOUNT_OUT_OF_RANGE');
    given(quoteDecider).when(create({ lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 100_000, limits: { sending: { min: 1, max: 100_000 } } })).thenFails('AMOUNT_OUT_OF_RANGE');
  });

  it('refuses an amount that does not cover the fees', () => {
    given(quoteDecider).when(create({ lockedCurrencyAmount: 25 })).thenFails('AMOUNT_BELOW_FEES');
  });

  it('expires a PENDING quote at expiresAt, not before; expiring again changes nothing', () => {
    given(quoteDecider, [created()]).when({ type: 'ExpireQuote', now: '2026-01-01T00:04:59.999Z' }).thenFails('QUOTE_NOT_EXPIRED');
    given(quoteDecider, [created()]).when({ type: 'ExpireQuote', now: LATER }).then([expired]);
    given(quoteDecider, [created(), expired]).when({ type: 'ExpireQuote', now: LATER }).then([]);
    expect(given(quoteDecider, [created(), expired]).state).toMatchObject({ status: 'EXPIRED', expiredAt: LATER, totalSendingAmount: 10_000 });
  });

  it('cannot expire a quote that does not exist', () => {
    given(quoteDecider).when({ type: 'ExpireQuote', now: LATER }).thenFails('QUOTE_NOT_FOUND');
  });
});
