import { ApiError } from '@payments/contracts';
import { fiatAmountOf } from './fiat-amount';

describe('fiatAmountOf', () => {
  it('converts token units to cents exactly (6 token decimals, 2 fiat decimals)', () => {
    expect(fiatAmountOf('1000000', 6, 2)).toBe(100);
    expect(fiatAmountOf('10000', 6, 2)).toBe(1);
    expect(fiatAmountOf('123450000', 6, 2)).toBe(12_345);
  });

  it('refuses amounts that are not whole cents, zero, or beyond safe integers', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return (error as ApiError).code;
      }
      return 'accepted';
    };
    expect(code(() => fiatAmountOf('1000001', 6, 2))).toBe('INVALID_AMOUNT');
    expect(code(() => fiatAmountOf('9999', 6, 2))).toBe('INVALID_AMOUNT');
    expect(code(() => fiatAmountOf('0', 6, 2))).toBe('INVALID_AMOUNT');
    expect(code(() => fiatAmountOf('9'.repeat(38), 6, 2))).toBe('INVALID_AMOUNT');
    // The largest that fits: MAX_SAFE_INTEGER cents.
    expect(fiatAmountOf(`${Number.MAX_SAFE_INTEGER}0000`, 6, 2)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('scales up when the token has fewer decimals than the currency', () => {
    expect(fiatAmountOf('5', 0, 2)).toBe(500);
  });
});
