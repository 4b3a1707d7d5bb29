import { ApiError } from '@payments/contracts';
import { canonicalDecimal, significantDigits, validateRateEntry } from './rate-entry.validation';

const NOW = '2026-03-02T10:00:00.000Z';
const DAY = 86_400_000;
const inHours = (h: number) => new Date(Date.parse(NOW) + h * 3_600_000).toISOString();
const valid = { sourceCurrency: 'USD', destinationCurrency: 'EUR', midRate: '0.9123', validUntil: inHours(24) };

function refused(input: Partial<typeof valid> & Record<string, unknown>, maxAgeMs = 3 * DAY): ApiError {
  try {
    validateRateEntry({ ...valid, ...input } as never, NOW, maxAgeMs);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('accepted');
}

describe('operator rate table entries: validation', () => {
  it('accepts a positive exact decimal for a window from now, and writes it once', () => {
    expect(validateRateEntry({ ...valid, midRate: '000.912300', reason: '  desk rate  ' }, NOW, 3 * DAY)).toEqual({
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      midRate: '0.9123',
      validFrom: NOW,
      validUntil: inHours(24),
      reason: 'desk rate',
    });
    expect(validateRateEntry({ ...valid, validFrom: inHours(2), validUntil: inHours(26) }, NOW, 3 * DAY).validFrom).toBe(inHours(2));
  });

  it.each([
    [{ midRate: '0' }, 'midRate', 'greater than 0'],
    [{ midRate: '0.000' }, 'midRate', 'greater than 0'],
    [{ midRate: '-1' }, 'midRate', 'positive decimal'],
    [{ midRate: '1e3' }, 'midRate', 'positive decimal'],
    [{ midRate: '1,5' }, 'midRate', 'positive decimal'],
    [{ midRate: '.5' }, 'midRate', 'positive decimal'],
    [{ midRate: 0.9 }, 'midRate', 'positive decimal'],
    [{ midRate: '1.2345678901234567' }, 'midRate', 'significant digits'],
    [{ validUntil: NOW }, 'validUntil', 'after validFrom'],
    [{ validFrom: inHours(5), validUntil: inHours(4) }, 'validUntil', 'after validFrom'],
    [{ validFrom: inHours(-1) }, 'validFrom', 'in the past'],
    [{ validFrom: inHours(24 * 91), validUntil: inHours(24 * 92) }, 'validFrom', '90 days'],
    [{ validUntil: inHours(73) }, 'validUntil', 'RATE_MAX_AGE_SECONDS=259200'],
    [{ reason: '   ' }, 'reason', '1 to 500'],
  ])('refuses %j (%s)', (input, field, message) => {
    const error = refused(input as never);
    expect(error.code).toBe('INVALID_INPUT');
    expect((error.details?.errors as { field: string }[])[0].field).toBe(field);
    expect(error.message).toContain(message);
  });

  it('refuses unsupported and identical currencies', () => {
    expect(refused({ sourceCurrency: 'XYZ' })).toMatchObject({ code: 'INVALID_CURRENCY' });
    expect(refused({ destinationCurrency: 'usd' })).toMatchObject({ code: 'INVALID_CURRENCY' });
    expect(refused({ destinationCurrency: 'USD' })).toMatchObject({ code: 'SAME_CURRENCY' });
  });

  it('tolerates a minute of clock skew on validFrom', () => {
    expect(validateRateEntry({ ...valid, validFrom: new Date(Date.parse(NOW) - 30_000).toISOString() }, NOW, 3 * DAY).validFrom).toBe('2026-03-02T09:59:30.000Z');
  });

  it('counts significant digits and writes decimals canonically', () => {
    expect(significantDigits('0.000120')).toBe(2);
    expect(significantDigits('1550')).toBe(4);
    expect(significantDigits('62000.50')).toBe(6);
    expect(canonicalDecimal('0017.2500')).toBe('17.25');
    expect(canonicalDecimal('0.0')).toBe('0');
  });
});
