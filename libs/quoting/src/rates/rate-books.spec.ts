import { ApiError } from '@payments/contracts';
import { listExchangeRates } from './exchange-rates';
import { midRates } from './mid-rates';
import { ModeRateBooks } from './rate-books';
import type { RateBook } from './rate-source';
import { SandboxRateSource } from './sandbox-rates';

const T0 = '2026-01-01T00:01:00.000Z';
const NO_FEES = { fees: { variableFeeBps: 0, fixedFee: 0 } };

/** Production as configured with nothing: every pair refused. */
const unconfigured: RateBook = { lookup: (s, d) => ({ ok: false, error: new ApiError('RATE_SOURCE_NOT_CONFIGURED', `no rate source prices ${s}→${d}`) }) };

describe('rate books by mode', () => {
  const sandbox = new SandboxRateSource();
  const books = new ModeRateBooks(sandbox, { book: async () => unconfigured });

  it('the sandbox prices from its synthetic table exactly as before, recorded as SANDBOX', async () => {
    const found = (await books.book('SANDBOX', T0)).lookup('USD', 'EUR');
    const table = sandbox.rate('USD', 'EUR', T0)!;
    expect(found.ok && found.rate).toEqual({
      ...table,
      pricing: { source: 'SANDBOX', sourceCurrency: 'USD', destinationCurrency: 'EUR', midRate: table.midRate, derivation: 'SYNTHETIC', publishedAt: table.updatedAt, validUntil: table.validUntil, sourcePerBtc: table.sourcePerBtc, btcReference: 'SANDBOX' },
    });
  });

  it('production asks its own sources, never the sandbox table', async () => {
    const found = (await books.book('PRODUCTION', T0)).lookup('USD', 'EUR');
    expect(found.ok).toBe(false);
  });

  it('GET /exchange-rates answers the refusal when no pair at all can be priced, and leaves out the pairs it cannot price otherwise', async () => {
    const query = { sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] };
    await expect(listExchangeRates(unconfigured, query, async () => [], async () => NO_FEES, T0)).rejects.toMatchObject({ code: 'RATE_SOURCE_NOT_CONFIGURED', status: 501 });
    await expect(listExchangeRates(unconfigured, { destinationCurrency: ['EUR'] }, async () => ['USD', 'GBP'], async () => NO_FEES, T0)).rejects.toMatchObject({ code: 'RATE_SOURCE_NOT_CONFIGURED' });
    const sandboxBook = await books.book('SANDBOX', T0);
    const onlyEur: RateBook = { lookup: (s, d) => (d === 'EUR' ? sandboxBook.lookup(s, d) : unconfigured.lookup(s, d)) };
    const listed = await listExchangeRates(onlyEur, query, async () => [], async () => NO_FEES, T0);
    expect(listed.data.map((r) => r.destinationCurrency.code)).toEqual(['EUR']);
  });

  it('a stale corridor is named before an unconfigured one', async () => {
    const mixed: RateBook = { lookup: (s, d) => ({ ok: false, error: new ApiError(d === 'MXN' ? 'RATE_STALE' : 'RATE_SOURCE_NOT_CONFIGURED', `${s}→${d}`) }) };
    await expect(listExchangeRates(mixed, { sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'] }, async () => [], async () => NO_FEES, T0)).rejects.toMatchObject({ code: 'RATE_STALE', message: 'USD→MXN' });
  });

  it('mid rates for estimates elsewhere are null where production cannot price, 1 to itself', () => {
    expect(midRates(unconfigured, { pairs: [{ from: 'USD', to: 'EUR' }, { from: 'USD', to: 'USD' }] })).toEqual({ rates: [{ from: 'USD', to: 'EUR', rate: null }, { from: 'USD', to: 'USD', rate: 1 }] });
  });
});
