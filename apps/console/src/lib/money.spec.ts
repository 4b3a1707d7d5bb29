import { decimalsOf, formatAmount, majorToMinor, minorToMajor } from './money';

describe('amounts in major units', () => {
  it('turns minor units into major ones exactly, whatever the size or sign', () => {
    expect(minorToMajor(1234, 2)).toBe('12.34');
    expect(minorToMajor(5, 2)).toBe('0.05');
    expect(minorToMajor(-5, 2)).toBe('-0.05');
    expect(minorToMajor(0, 2)).toBe('0.00');
    expect(minorToMajor(1500, 0)).toBe('1500');
    expect(minorToMajor(1, 8)).toBe('0.00000001');
    expect(minorToMajor('9223372036854775807', 2)).toBe('92233720368547758.07'); // int64 max, no float on the way
  });

  it('reads what a person typed, refusing what the currency cannot hold', () => {
    expect(majorToMinor('12.34', 2)).toEqual({ minor: 1234 });
    expect(majorToMinor('1,000.5', 2)).toEqual({ minor: 100050 });
    expect(majorToMinor('.5', 2)).toEqual({ minor: 50 });
    expect(majorToMinor('7', 0)).toEqual({ minor: 7 });
    expect(majorToMinor('0.1', 8)).toEqual({ minor: 10_000_000 });
    expect(majorToMinor('12.345', 2)).toEqual({ error: 'at most 2 decimal places' });
    expect(majorToMinor('1.5', 0)).toEqual({ error: 'this currency has no decimal places' });
    expect(majorToMinor('-3', 2)).toHaveProperty('error');
    expect(majorToMinor('1e3', 2)).toHaveProperty('error');
    expect(majorToMinor('ten', 2)).toHaveProperty('error');
    expect(majorToMinor('99999999999999999', 2)).toEqual({ error: 'amount too large' });
  });

  it('takes the API’s decimals first, then ISO 4217’s, then the crypto table', () => {
    expect(decimalsOf({ code: 'USD', decimals: 2 })).toBe(2);
    expect(decimalsOf({ code: 'XYZ', decimals: 6 })).toBe(6);
    expect(decimalsOf('JPY')).toBe(0);
    expect(decimalsOf('KWD')).toBe(3);
    expect(decimalsOf('BTC')).toBe(8);
    expect(decimalsOf('USDC')).toBe(6);
    expect(decimalsOf('USDB')).toBe(6); // the Embedded Wallet stablecoin: Intl refuses a four-letter code
  });

  it('formats with the currency’s decimals and code, grouped in the viewer’s locale', () => {
    expect(formatAmount(123456, { code: 'USD', decimals: 2 }, 'en-US')).toBe('1,234.56 USD');
    expect(formatAmount(123456, { code: 'EUR', decimals: 2 }, 'de-DE')).toBe('1.234,56 EUR');
    expect(formatAmount(1500, 'JPY', 'en-US')).toBe('1,500 JPY');
    expect(formatAmount(1, 'BTC', 'en-US')).toBe('0.00000001 BTC');
  });
});
