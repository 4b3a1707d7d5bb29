import { parseDecimal } from '@payments/money';
import { divide, invert, toSignificantDecimal } from './rate-decimal';

const d = (text: string) => parseDecimal(text)!;

describe('derived rates: exact quotients written with 15 significant digits', () => {
  it('rounds half up and drops trailing zeros', () => {
    expect(toSignificantDecimal(invert(d('3')))).toBe('0.333333333333333');
    expect(toSignificantDecimal(divide(d('2'), d('3')))).toBe('0.666666666666667');
    expect(toSignificantDecimal(invert(d('0.9123')))).toBe('1.09613065877453');
    expect(toSignificantDecimal(invert(d('4')))).toBe('0.25');
    expect(toSignificantDecimal(d('0.5'), 1)).toBe('0.5');
    expect(toSignificantDecimal(d('0.25'), 1)).toBe('0.3'); // half up
    expect(toSignificantDecimal(d('9.99999999999999999'))).toBe('10');
  });

  it('keeps magnitude: tiny and huge rates', () => {
    expect(toSignificantDecimal(invert(d('62000.5')))).toBe('0.0000161289021862727');
    expect(toSignificantDecimal(divide(d('1600000000'), d('3')))).toBe('533333333.333333');
    expect(toSignificantDecimal(d('123456789012345678'))).toBe('123456789012346000');
    expect(toSignificantDecimal(d('1'))).toBe('1');
  });

  it('refuses what is not a positive rational', () => {
    expect(() => toSignificantDecimal({ num: 0n, den: 1n })).toThrow(RangeError);
    expect(() => divide(d('1'), d('0'))).toThrow(RangeError);
  });
});
