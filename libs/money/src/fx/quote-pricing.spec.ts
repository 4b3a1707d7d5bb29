import fc from 'fast-check';
import { findCurrency } from '../currencies';
import { checkPublishedQuote } from './recompute';
import { FxQuoteInput, FxQuotePricing, priceFxQuote } from './quote-pricing';
import { mul, parseDecimal } from './rational';

const NUM_RUNS = 3000;
const CODES = ['USD', 'EUR', 'MXN', 'VND', 'RWF', 'IDR', 'USDC', 'USDT', 'BTC'] as const; // decimals 0, 2, 6, 8

const decimalString = fc
  .tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 10 ** 8 - 1 }), fc.integer({ min: 0, max: 8 }))
  .map(([int, frac, digits]) => (digits === 0 ? `${int}` : `${int}.${String(frac).padStart(8, '0').slice(0, digits)}`))
  .filter((s) => parseDecimal(s)!.num > 0n);

const pair = fc
  .tuple(fc.constantFrom(...CODES), fc.constantFrom(...CODES))
  .filter(([a, b]) => a !== b);

const amount = fc.oneof(
  fc.integer({ min: 1, max: 10_000 }),
  fc.integer({ min: 1, max: 10 ** 12 }),
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
);

const quoteInput: fc.Arbitrary<FxQuoteInput> = fc.record({
  pair,
  midRate: decimalString,
  sendingPerBtc: decimalString,
  fees: fc.record({
    gridVariableFeeBps: fc.integer({ min: 0, max: 500 }),
    gridFixedFee: fc.integer({ min: 0, max: 5_000 }),
    platformVariableFeeBps: fc.integer({ min: 0, max: 500 }),
    platformFixedFee: fc.integer({ min: 0, max: 5_000 }),
    counterpartyFixedFee: fc.integer({ min: 0, max: 5_000 }),
  }),
  lockedCurrencySide: fc.constantFrom('SENDING' as const, 'RECEIVING' as const),
  lockedCurrencyAmount: amount,
}).map(({ pair: [sendingCurrency, receivingCurrency], ...rest }) => ({ sendingCurrency, receivingCurrency, ...rest }));

function ok(input: FxQuoteInput): FxQuotePricing {
  const r = priceFxQuote(input);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** Receiving minor units per sending minor unit, recomputed independently from the inputs. */
function minorRate(input: FxQuoteInput) {
  const dS = findCurrency(input.sendingCurrency)!.decimals;
  const dR = findCurrency(input.receivingCurrency)!.decimals;
  return mul(parseDecimal(input.midRate)!, { num: 10n ** BigInt(dR), den: 10n ** BigInt(dS) });
}

const EXPECTED_ERRORS = ['AMOUNT_BELOW_FEES', 'AMOUNT_UNSAFE'];

describe('priceFxQuote properties', () => {
  it('publishes safe non-negative integers with S = principal + fees exactly and platform fees inside fees', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const r = priceFxQuote(input);
        if (!r.ok) return EXPECTED_ERRORS.includes(r.error.code);
        const q = r.value;
        const d = q.rateDetails;
        const ints = [q.totalSendingAmount, q.totalReceivingAmount, q.feesIncluded, q.platformFeesIncluded, q.principalAmount,
          q.grossReceivingAmount, d.counterpartyFixedFee, d.gridApiFixedFee, d.gridApiVariableFeeAmount];
        expect(ints.every((n) => Number.isSafeInteger(n) && n >= 0)).toBe(true);
        expect(q.totalSendingAmount > 0 && q.totalReceivingAmount > 0).toBe(true);
        expect(BigInt(q.totalSendingAmount)).toBe(BigInt(q.principalAmount) + BigInt(q.feesIncluded));
        expect(q.feesIncluded).toBe(d.gridApiFixedFee + d.gridApiVariableFeeAmount);
        expect(q.platformFeesIncluded).toBeLessThanOrEqual(q.feesIncluded);
        expect(q.totalReceivingAmount).toBe(q.grossReceivingAmount - d.counterpartyFixedFee);
        expect(d.counterpartyMultiplier > 0 && d.gridApiMultiplier > 0 && q.exchangeRate > 0).toBe(true);
        if (input.lockedCurrencySide === 'SENDING') expect(q.totalSendingAmount).toBe(input.lockedCurrencyAmount);
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('loses or creates no minor unit: principal × rate = gross receiving + remainder, remainder in [0, 1)', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const r = priceFxQuote(input);
        if (!r.ok) return true;
        const q = r.value;
        const rate = minorRate(input);
        const rem = q.fxRoundingRemainder;
        expect(rem.num >= 0n && rem.num < rem.den).toBe(true);
        // principal × rate.num / rate.den == gross + rem.num / rem.den, cross-multiplied exactly
        expect(BigInt(q.principalAmount) * rate.num * rem.den).toBe(
          (BigInt(q.grossReceivingAmount) * rem.den + rem.num) * rate.den,
        );
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('lets a client recompute every amount from the published fields and rateDetails', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const r = priceFxQuote(input);
        if (!r.ok) return true;
        expect(checkPublishedQuote({ ...r.value, sendingCurrency: input.sendingCurrency, receivingCurrency: input.receivingCurrency })).toEqual([]);
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('exchangeRate is sending major units per receiving major unit (principal / gross), within the rounding bound of 1/mid', () => {
    fc.assert(
      fc.property(quoteInput, (input) => {
        const r = priceFxQuote(input);
        if (!r.ok) return true;
        const q = r.value;
        const dS = findCurrency(input.sendingCurrency)!.decimals;
        const dR = findCurrency(input.receivingCurrency)!.decimals;
        const implied = q.principalAmount / 10 ** dS / (q.grossReceivingAmount / 10 ** dR);
        expect(Math.abs(q.exchangeRate - implied)).toBeLessThanOrEqual(1e-12 * implied);
        // gross <= principal × mid < gross + 1 (minor units)  ⇒  1/mid <= exchangeRate < (1/mid)·(gross+1)/gross
        const inverseMid = 1 / Number(input.midRate);
        expect(q.exchangeRate).toBeGreaterThanOrEqual(inverseMid * (1 - 1e-12));
        expect(q.exchangeRate).toBeLessThanOrEqual(inverseMid * ((q.grossReceivingAmount + 1) / q.grossReceivingAmount) * (1 + 1e-12));
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('locking RECEIVING delivers at least the locked amount, and one sending minor unit less would not', () => {
    fc.assert(
      fc.property(quoteInput, (base) => {
        const input = { ...base, lockedCurrencySide: 'RECEIVING' as const };
        const r = priceFxQuote(input);
        if (!r.ok) return EXPECTED_ERRORS.includes(r.error.code);
        const q = r.value;
        expect(q.totalReceivingAmount).toBeGreaterThanOrEqual(input.lockedCurrencyAmount);
        const same = ok({ ...input, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: q.totalSendingAmount });
        expect(same).toEqual(q);
        if (q.totalSendingAmount > 1) {
          const less = priceFxQuote({ ...input, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: q.totalSendingAmount - 1 });
          if (less.ok) expect(less.value.totalReceivingAmount).toBeLessThan(input.lockedCurrencyAmount);
        }
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('receiving amount is non-decreasing in the sending amount (what makes the RECEIVING search sound)', () => {
    fc.assert(
      fc.property(quoteInput, (base) => {
        const input = { ...base, lockedCurrencySide: 'SENDING' as const, lockedCurrencyAmount: Math.min(base.lockedCurrencyAmount, 10 ** 12) };
        const a = priceFxQuote(input);
        const b = priceFxQuote({ ...input, lockedCurrencyAmount: input.lockedCurrencyAmount + 1 });
        if (a.ok) {
          expect(b.ok).toBe(true);
          if (b.ok) expect(b.value.totalReceivingAmount).toBeGreaterThanOrEqual(a.value.totalReceivingAmount);
        }
        return true;
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('priceFxQuote worked examples', () => {
  it('USD→MXN, SENDING 100.00 USD at 17.25', () => {
    const q = ok({
      sendingCurrency: 'USD', receivingCurrency: 'MXN', midRate: '17.25', sendingPerBtc: '60000',
      fees: { gridVariableFeeBps: 30, gridFixedFee: 25, platformVariableFeeBps: 20, platformFixedFee: 25, counterpartyFixedFee: 100 },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
    });
    // variable = ceil(10000 × 50 / 10000) = 50; fees = 50 + 50; principal 9900; gross = floor(9900 × 1725/100) = 170775
    expect(q).toMatchObject({
      totalSendingAmount: 10_000, feesIncluded: 100, platformFeesIncluded: 45, principalAmount: 9_900,
      grossReceivingAmount: 170_775, totalReceivingAmount: 170_675,
      fxRoundingRemainder: { num: 0n, den: 1n },
    });
    expect(q.exchangeRate).toBeCloseTo(1 / 17.25, 15);
    expect(q.rateDetails).toMatchObject({ counterpartyFixedFee: 100, gridApiFixedFee: 50, gridApiVariableFeeRate: 0.5, gridApiVariableFeeAmount: 50 });
    // 60000 USD per BTC ⇒ 1e11 / 6e6 mSATs per cent; gridApiMultiplier keeps 99.5% of it
    expect(q.rateDetails.gridApiMultiplier).toBeCloseTo((1e11 / 6e6) * 0.995, 9);
    expect(q.rateDetails.counterpartyMultiplier).toBeCloseTo(17.25 / (1e11 / 6e6), 15);
  });

  it('EUR→USD, RECEIVING 100.00 USD at 1.0837 finds the smallest sending amount', () => {
    const q = ok({
      sendingCurrency: 'EUR', receivingCurrency: 'USD', midRate: '1.0837', sendingPerBtc: '55000',
      fees: { gridVariableFeeBps: 25, gridFixedFee: 0, platformVariableFeeBps: 0, platformFixedFee: 30, counterpartyFixedFee: 0 },
      lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 10_000,
    });
    // principal ≥ 10000 / 1.0837 = 9227.6… ⇒ 9228; S − ceil(0.0025 S) − 30 = 9228 first at S = 9282
    expect(q).toMatchObject({
      totalSendingAmount: 9_282, feesIncluded: 54, platformFeesIncluded: 30, principalAmount: 9_228,
      grossReceivingAmount: 10_000, totalReceivingAmount: 10_000,
      fxRoundingRemainder: { num: 959n, den: 2500n }, // 9228 × 1.0837 = 10000.3836
    });
    const less = ok({ sendingCurrency: 'EUR', receivingCurrency: 'USD', midRate: '1.0837', sendingPerBtc: '55000',
      fees: { gridVariableFeeBps: 25, gridFixedFee: 0, platformVariableFeeBps: 0, platformFixedFee: 30, counterpartyFixedFee: 0 },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 9_281 });
    expect(less.totalReceivingAmount).toBe(9_999); // 9281 − ceil(23.2025) − 30 = 9227 ⇒ floor(9999.2999) = 9999 < 10000
  });

  it('USD→BTC, SENDING 1000.00 USD at 0.0000153 BTC per USD', () => {
    const q = ok({
      sendingCurrency: 'USD', receivingCurrency: 'BTC', midRate: '0.0000153', sendingPerBtc: '65359.48',
      fees: { gridVariableFeeBps: 100, gridFixedFee: 0, platformVariableFeeBps: 0, platformFixedFee: 0, counterpartyFixedFee: 10 },
      lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000,
    });
    // 15.3 sat per cent; principal 99000 ⇒ 1514700 sat gross, 1514690 delivered
    expect(q).toMatchObject({ feesIncluded: 1_000, platformFeesIncluded: 0, principalAmount: 99_000, grossReceivingAmount: 1_514_700, totalReceivingAmount: 1_514_690 });
    expect(q.exchangeRate).toBeCloseTo(1 / 0.0000153, 8);
  });
});

describe('priceFxQuote errors', () => {
  const base: FxQuoteInput = {
    sendingCurrency: 'USD', receivingCurrency: 'MXN', midRate: '17.25', sendingPerBtc: '60000',
    fees: { gridVariableFeeBps: 30, gridFixedFee: 25, platformVariableFeeBps: 20, platformFixedFee: 25, counterpartyFixedFee: 100 },
    lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000,
  };
  const code = (i: FxQuoteInput) => {
    const r = priceFxQuote(i);
    return r.ok ? 'OK' : r.error.code;
  };
  it.each<[string, Partial<FxQuoteInput>, string]>([
    ['same currency', { receivingCurrency: 'USD' }, 'SAME_CURRENCY'],
    ['unknown currency', { receivingCurrency: 'XXX' }, 'UNKNOWN_CURRENCY'],
    ['zero rate', { midRate: '0' }, 'INVALID_RATE'],
    ['malformed rate', { midRate: '1e3' }, 'INVALID_RATE'],
    ['sending below fees', { lockedCurrencyAmount: 50 }, 'AMOUNT_BELOW_FEES'],
    ['receiving eaten by the counterparty fee', { lockedCurrencyAmount: 56 }, 'AMOUNT_BELOW_FEES'],
    ['zero amount', { lockedCurrencyAmount: 0 }, 'INVALID_AMOUNT'],
    ['fractional amount', { lockedCurrencyAmount: 1.5 }, 'INVALID_AMOUNT'],
    ['unsafe amount', { lockedCurrencyAmount: 2 ** 53 }, 'INVALID_AMOUNT'],
    ['receiving beyond the safe range', { lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: Number.MAX_SAFE_INTEGER }, 'AMOUNT_UNSAFE'],
    ['gross beyond the safe range', { lockedCurrencyAmount: Number.MAX_SAFE_INTEGER }, 'AMOUNT_UNSAFE'],
    ['variable fees of 100%', { fees: { ...base.fees, gridVariableFeeBps: 9_980 } }, 'INVALID_FEE'],
    ['negative fee', { fees: { ...base.fees, gridFixedFee: -1 } }, 'INVALID_FEE'],
  ])('%s', (_name, patch, expected) => {
    expect(code({ ...base, ...patch })).toBe(expected);
  });
});
