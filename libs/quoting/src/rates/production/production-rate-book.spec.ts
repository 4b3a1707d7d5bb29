import type { ApiError } from '@payments/contracts';
import { statusOf } from '@payments/contracts';
import { OperatorTableEntry, ProductionRateBook, ProductionRateSettings, StoredEcbRates } from './production-rate-book';

const HOUR = 3_600_000;
const T0 = '2026-03-02T10:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();

let seq = 0;
function entry(source: string, destination: string, midRate: string | null, fromHours: number, untilHours: number | null, kind: 'SET' | 'WITHDRAWN' = 'SET'): OperatorTableEntry {
  seq += 1;
  return {
    entryId: `RateEntry:${seq}`,
    seq,
    sourceCurrency: source,
    destinationCurrency: destination,
    kind,
    midRate,
    validFrom: at(fromHours),
    validUntil: untilHours === null ? null : at(untilHours),
    reason: null,
    operatorId: 'Operator:1',
    operatorName: 'Ada',
    recordedAt: at(fromHours),
  };
}

/** The recorded document's USD and MXN rates, published Friday 2026-02-27 16:00 CET. */
const ECB: StoredEcbRates = { referenceDate: '2026-02-27', publishedAt: '2026-02-27T15:00:00.000Z', fetchedAt: '2026-02-27T15:20:00.000Z', perEur: { USD: '1.0163', MXN: '20.8477', GBP: '0.84585' } };
const ECB_ON: ProductionRateSettings = { operatorMaxAgeMs: 72 * HOUR, ecb: { url: 'https://ecb.example/eurofxref-daily.xml', maxAgeMs: 108 * HOUR } };
const ECB_OFF: ProductionRateSettings = { operatorMaxAgeMs: 72 * HOUR };

function refusal(book: ProductionRateBook, s: string, d: string): ApiError {
  const found = book.lookup(s, d);
  if (found.ok) throw new Error(`${s}→${d} was priced at ${found.rate.midRate}`);
  return found.error;
}
function priced(book: ProductionRateBook, s: string, d: string) {
  const found = book.lookup(s, d);
  if (!found.ok) throw found.error;
  return found.rate;
}

describe('production rates: precedence, staleness, no source, crypto', () => {
  it('with nothing configured, every pair is 501 RATE_SOURCE_NOT_CONFIGURED naming the operator API and ECB_RATES_URL', () => {
    const error = refusal(new ProductionRateBook([], undefined, ECB_OFF, T0), 'USD', 'EUR');
    expect(error.code).toBe('RATE_SOURCE_NOT_CONFIGURED');
    expect(statusOf(error.code)).toBe(501);
    expect(error.message).toContain('PUT /operator/v1/rates/USD/EUR');
    expect(error.message).toContain('ECB_RATES_URL');
  });

  it('an operator entry valid now prices exactly as set, recorded as OPERATOR_TABLE with its entry and publication time', () => {
    const set = entry('USD', 'EUR', '0.9123', -1, 5);
    const rate = priced(new ProductionRateBook([set], ECB, ECB_ON, T0), 'USD', 'EUR');
    expect(rate).toMatchObject({ midRate: '0.9123', updatedAt: at(-1), validUntil: at(5) });
    expect(rate.pricing).toEqual({
      source: 'OPERATOR_TABLE',
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      midRate: '0.9123',
      derivation: 'DIRECT',
      publishedAt: at(-1),
      validUntil: at(5),
      entryId: set.entryId,
      sourcePerBtc: '1',
      btcReference: 'NOMINAL',
    });
  });

  it('the operator entry wins over the ECB while valid; once it ends, the ECB prices again', () => {
    const entries = [entry('USD', 'EUR', '0.9123', -1, 5)];
    expect(priced(new ProductionRateBook(entries, ECB, ECB_ON, T0), 'USD', 'EUR').pricing.source).toBe('OPERATOR_TABLE');
    const after = priced(new ProductionRateBook(entries, ECB, ECB_ON, at(5)), 'USD', 'EUR');
    expect(after.pricing).toMatchObject({ source: 'ECB', midRate: '0.983961428711994', derivation: 'INVERSE', publishedAt: ECB.publishedAt, referenceDate: '2026-02-27' });
  });

  it('the other direction is priced at 1/mid, unless it has an entry of its own', () => {
    const eurUsd = entry('EUR', 'USD', '1.1', -1, 5);
    const book = new ProductionRateBook([eurUsd], undefined, ECB_OFF, T0);
    expect(priced(book, 'USD', 'EUR').pricing).toMatchObject({ midRate: '0.909090909090909', derivation: 'INVERSE', entryId: eurUsd.entryId });
    const usdEur = entry('USD', 'EUR', '0.92', -1, 5);
    expect(priced(new ProductionRateBook([eurUsd, usdEur], undefined, ECB_OFF, T0), 'USD', 'EUR').pricing).toMatchObject({ midRate: '0.92', derivation: 'DIRECT' });
  });

  it('of the entries whose window has begun, the most recently recorded applies; a scheduled one waits for its start', () => {
    const first = entry('USD', 'MXN', '17.1', -2, 10);
    const scheduled = entry('USD', 'MXN', '17.3', 2, 10);
    const book = (hours: number) => new ProductionRateBook([scheduled, first], undefined, ECB_OFF, at(hours));
    expect(priced(book(0), 'USD', 'MXN').midRate).toBe('17.1');
    expect(priced(book(2), 'USD', 'MXN').midRate).toBe('17.3');
    const correction = entry('USD', 'MXN', '17.2', 0, 10); // recorded after the scheduled one: it applies even once that begins
    expect(priced(new ProductionRateBook([first, scheduled, correction], undefined, ECB_OFF, at(3)), 'USD', 'MXN').midRate).toBe('17.2');
  });

  it('a withdrawal ends the pair\'s operator rate: the ECB prices, or the pair has no source', () => {
    const entries = [entry('USD', 'EUR', '0.9123', -1, 5), entry('USD', 'EUR', null, 0, null, 'WITHDRAWN')];
    expect(priced(new ProductionRateBook(entries, ECB, ECB_ON, at(1)), 'USD', 'EUR').pricing.source).toBe('ECB');
    expect(refusal(new ProductionRateBook(entries, undefined, ECB_OFF, at(1)), 'USD', 'EUR').code).toBe('RATE_SOURCE_NOT_CONFIGURED');
  });

  it('an expired operator rate with nothing else is 503 RATE_STALE naming the pair, the source, its publication and end', () => {
    const set = entry('USD', 'NGN', '1550', -1, 1);
    const error = refusal(new ProductionRateBook([set], ECB, ECB_ON, at(1)), 'USD', 'NGN');
    expect(error.code).toBe('RATE_STALE');
    expect(statusOf(error.code)).toBe(503);
    expect(error.message).toContain('USD→NGN');
    expect(error.message).toContain('OPERATOR_TABLE');
    expect(error.message).toContain(`valid from ${at(-1)}`);
    expect(error.message).toContain(`expired at ${at(1)}`);
  });

  it('an operator rate older than RATE_MAX_AGE_SECONDS is stale even inside its window (the setting was lowered)', () => {
    const set = entry('USD', 'NGN', '1550', -1, 100);
    const settings = { ...ECB_OFF, operatorMaxAgeMs: 2 * HOUR };
    expect(priced(new ProductionRateBook([set], undefined, settings, T0), 'USD', 'NGN').validUntil).toBe(at(1));
    const error = refusal(new ProductionRateBook([set], undefined, settings, at(1)), 'USD', 'NGN');
    expect(error.message).toMatch(/published at .* more than RATE_MAX_AGE_SECONDS=7200 ago/);
  });

  it('an ECB document older than ECB_MAX_AGE_SECONDS is 503 RATE_STALE naming its publication and the maximum age', () => {
    const staleAt = new Date(Date.parse(ECB.publishedAt) + 108 * HOUR).toISOString();
    expect(priced(new ProductionRateBook([], ECB, ECB_ON, new Date(Date.parse(staleAt) - 1).toISOString()), 'USD', 'MXN').pricing.validUntil).toBe(staleAt);
    const error = refusal(new ProductionRateBook([], ECB, ECB_ON, staleAt), 'USD', 'MXN');
    expect(error.code).toBe('RATE_STALE');
    expect(error.message).toContain('USD→MXN');
    expect(error.message).toContain(`published ${ECB.publishedAt}`);
    expect(error.message).toContain('ECB_MAX_AGE_SECONDS=388800');
  });

  it('a pair the ECB does not publish needs an operator rate: 501 naming the currency the ECB lacks', () => {
    const error = refusal(new ProductionRateBook([], ECB, ECB_ON, T0), 'USD', 'NGN');
    expect(error.code).toBe('RATE_SOURCE_NOT_CONFIGURED');
    expect(error.message).toContain('PUT /operator/v1/rates/USD/NGN');
    expect(error.message).toContain('do not include NGN');
  });

  it('before the first ECB document arrives, a pair the ECB covers is 503 RATE_UNAVAILABLE with the last fetch error', () => {
    const settings = { ...ECB_ON, ecb: { ...ECB_ON.ecb!, lastError: 'HTTP 503' } };
    const error = refusal(new ProductionRateBook([], undefined, settings, T0), 'USD', 'MXN');
    expect(error.code).toBe('RATE_UNAVAILABLE');
    expect(statusOf(error.code)).toBe(503);
    expect(error.message).toContain('https://ecb.example/eurofxref-daily.xml');
    expect(error.message).toContain('HTTP 503');
  });

  it('crypto corridors without an operator rate are refused, whatever else is configured', () => {
    for (const [s, d] of [['USD', 'BTC'], ['USDC', 'USD'], ['USDB', 'EUR'], ['EUR', 'USDT']]) {
      const error = refusal(new ProductionRateBook([], ECB, ECB_ON, T0), s, d);
      expect(error.code).toBe('RATE_SOURCE_NOT_CONFIGURED');
      expect(error.message).toContain('crypto corridor');
      expect(error.message).toContain(`PUT /operator/v1/rates/${s}/${d}`);
    }
    const usdb = entry('USDB', 'USD', '1', -1, 5);
    expect(priced(new ProductionRateBook([usdb], ECB, ECB_ON, T0), 'USD', 'USDB').pricing).toMatchObject({ source: 'OPERATOR_TABLE', midRate: '1', derivation: 'INVERSE' });
  });

  it('takes the BTC reference of the mSAT multipliers from a fresh BTC rate of the table, else nominal', () => {
    const btc = entry('BTC', 'USD', '62000.5', -1, 5);
    const usdEur = entry('USD', 'EUR', '0.9123', -1, 5);
    expect(priced(new ProductionRateBook([btc, usdEur], undefined, ECB_OFF, T0), 'USD', 'EUR').pricing).toMatchObject({ sourcePerBtc: '62000.5', btcReference: 'OPERATOR_TABLE' });
    expect(priced(new ProductionRateBook([btc, usdEur], undefined, ECB_OFF, T0), 'USD', 'BTC')).toMatchObject({ midRate: '0.0000161289021862727', sourcePerBtc: '62000.5' });
    expect(priced(new ProductionRateBook([btc, usdEur], undefined, ECB_OFF, T0), 'BTC', 'USD')).toMatchObject({ midRate: '62000.5', sourcePerBtc: '1' });
    expect(priced(new ProductionRateBook([usdEur], undefined, ECB_OFF, T0), 'USD', 'EUR').pricing).toMatchObject({ sourcePerBtc: '1', btcReference: 'NOMINAL' });
  });

  it('a pair that is not one is 400 INVALID_CURRENCY, as in the sandbox', () => {
    const book = new ProductionRateBook([], ECB, ECB_ON, T0);
    expect(refusal(book, 'USD', 'USD').code).toBe('INVALID_CURRENCY');
    expect(refusal(book, 'USD', 'XYZ').code).toBe('INVALID_CURRENCY');
  });

  it('lists the ECB rates as published, with their staleness', () => {
    const book = new ProductionRateBook([], ECB, ECB_ON, T0);
    expect(book.ecbRates()).toEqual([
      { sourceCurrency: 'EUR', destinationCurrency: 'GBP', midRate: '0.84585', source: 'ECB', publishedAt: ECB.publishedAt, validUntil: expect.any(String), stale: false, referenceDate: '2026-02-27' },
      expect.objectContaining({ destinationCurrency: 'MXN', midRate: '20.8477' }),
      expect.objectContaining({ destinationCurrency: 'USD', midRate: '1.0163' }),
    ]);
    expect(new ProductionRateBook([], ECB, ECB_ON, at(200)).ecbRates().every((r) => r.stale)).toBe(true);
  });
});
