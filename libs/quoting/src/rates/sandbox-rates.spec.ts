import { priceFxQuote, SUPPORTED_CURRENCY_CODES } from '@payments/money';
import { feeSchedule, serviceFixedFee } from './fee-schedule';
import { RATE_WINDOW_MS, rateWindow, SANDBOX_DRIFT_MAX, SandboxRateSource, toDecimalString, USD_REFERENCE_RATES } from './sandbox-rates';

const T0 = '2026-01-01T00:01:00.000Z';

describe('sandbox rate source', () => {
  const rates = new SandboxRateSource();

  it('has a reference rate for every supported currency, so every pair can be quoted and priced', () => {
    expect(Object.keys(USD_REFERENCE_RATES).sort()).toEqual([...SUPPORTED_CURRENCY_CODES].sort());
    for (const from of SUPPORTED_CURRENCY_CODES) {
      for (const to of SUPPORTED_CURRENCY_CODES) {
        const rate = rates.rate(from, to, T0);
        if (from === to) {
          expect(rate).toBeUndefined();
          continue;
        }
        expect(rate?.midRate).toMatch(/^\d+(\.\d+)?$/);
        const priced = priceFxQuote({ sendingCurrency: from, receivingCurrency: to, midRate: rate!.midRate, sendingPerBtc: rate!.sourcePerBtc, fees: feeSchedule(from), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 * serviceFixedFee(from) + 1_000_000 });
        expect(priced.ok).toBe(true);
      }
    }
  });

  it('is deterministic within a 5-minute window and moves a little between windows', () => {
    const a = rates.rate('USD', 'EUR', '2026-01-01T00:00:00.000Z')!;
    expect(rates.rate('USD', 'EUR', '2026-01-01T00:04:59.999Z')).toEqual(a);
    expect(new SandboxRateSource().rate('USD', 'EUR', '2026-01-01T00:02:00.000Z')).toEqual(a);
    expect(a.validUntil).toBe('2026-01-01T00:05:00.000Z');
    const b = rates.rate('USD', 'EUR', '2026-01-01T00:05:00.000Z')!;
    expect(b.midRate).not.toBe(a.midRate);
    for (const r of [a, b]) expect(Math.abs(Number(r.midRate) / 0.92 - 1)).toBeLessThanOrEqual(SANDBOX_DRIFT_MAX + 1e-9);
  });

  it('keeps USD stablecoins at par with USD', () => {
    expect(rates.rate('USD', 'USDC', T0)?.midRate).toBe('1');
    expect(rates.rate('USDT', 'USD', T0)?.midRate).toBe('1');
    expect(rates.rate('USD', 'USDB', T0)?.midRate).toBe('1');
    expect(rates.rate('USDB', 'USDC', T0)?.midRate).toBe('1');
  });

  it('prices a Global Account withdrawal at par: 10 USDB → USD with the 0.25 USDB fixed fee of the published example', () => {
    // mintlify/snippets/global-accounts/walkthrough.mdx step 6: totalSendingAmount 10000000, feesIncluded 250000,
    // exchangeRate 1.0, totalReceivingAmount 975. Our 0.5% variable fee (50000) comes on top of that fixed fee.
    expect(serviceFixedFee('USDB')).toBe(250_000);
    const rate = rates.rate('USDB', 'USD', T0)!;
    const priced = priceFxQuote({ sendingCurrency: 'USDB', receivingCurrency: 'USD', midRate: rate.midRate, sendingPerBtc: rate.sourcePerBtc, fees: feeSchedule('USDB'), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000_000 });
    expect(priced.ok && priced.value).toMatchObject({ totalSendingAmount: 10_000_000, feesIncluded: 300_000, totalReceivingAmount: 970 });
  });

  it('windows are 5 minutes', () => {
    expect(rateWindow('1970-01-01T00:05:00.000Z')).toEqual({ index: 1, endsAt: new Date(2 * RATE_WINDOW_MS).toISOString() });
  });

  it('writes rates as plain decimals, never with an exponent', () => {
    expect(toDecimalString(3.846153846e-10)).toBe('0.0000000003846153846');
    expect(toDecimalString(25_400)).toBe('25400');
    expect(toDecimalString(0.92)).toBe('0.92');
  });

  it('charges a fixed service fee worth about 25 US cents', () => {
    expect(serviceFixedFee('USD')).toBe(25);
    expect(serviceFixedFee('BTC')).toBe(400);
    expect(feeSchedule('EUR')).toEqual({ gridVariableFeeBps: 50, gridFixedFee: 23, platformVariableFeeBps: 0, platformFixedFee: 0, counterpartyFixedFee: 0 });
  });
});
