import { ApiError, invalidInput, RATE_DECIMAL } from '@payments/contracts';
import { findCurrency } from '@payments/money';

/** Significant digits an operator may give a mid rate: more is noise, and a typo is easier to see. */
export const RATE_SIGNIFICANT_DIGITS_MAX = 15;
/** How far in the past validFrom may be (clock skew between the operator's tools and the service): 1 minute. */
export const VALID_FROM_PAST_TOLERANCE_MS = 60_000;
/** How far ahead a rate may be scheduled: 90 days. */
export const VALID_FROM_FUTURE_MAX_MS = 90 * 86_400_000;

export interface RateEntryInput {
  sourceCurrency: string;
  destinationCurrency: string;
  midRate: string;
  validFrom?: string;
  validUntil: string;
  reason?: string;
}

/** A validated entry: the window normalized to ISO 8601 UTC. */
export interface ValidRateEntry {
  sourceCurrency: string;
  destinationCurrency: string;
  midRate: string;
  validFrom: string;
  validUntil: string;
  reason: string | null;
}

/** Supported, different currencies: the pair of a path (PUT and DELETE alike). */
export function validatePair(sourceCurrency: string, destinationCurrency: string): void {
  for (const [field, code] of [['sourceCurrency', sourceCurrency], ['destinationCurrency', destinationCurrency]] as const) {
    if (!findCurrency(code)) throw new ApiError('INVALID_CURRENCY', `${code} is not a supported currency`, { errors: [{ field, message: 'not a supported currency' }] });
  }
  if (sourceCurrency === destinationCurrency) throw new ApiError('SAME_CURRENCY', `a rate needs two currencies; ${sourceCurrency}→${sourceCurrency} is 1 by definition`);
}

/** The significant digits of a plain decimal string ("0.000120" has 2: 1 and 2). */
export function significantDigits(text: string): number {
  const digits = text.replace('.', '').replace(/^0+/, '');
  const fraction = text.includes('.') ? text.split('.')[1] : '';
  const trailing = fraction.length - fraction.replace(/0+$/, '').length;
  return Math.max(0, digits.length - trailing);
}

/**
 * The rules of an operator rate table entry, checked by the service whatever the gateway let through: a positive
 * exact decimal of sane precision, supported and different currencies, a window that starts now or later (within a
 * minute's clock skew, at most 90 days ahead), ends after it starts and in the future, and lasts at most the table's
 * maximum age (RATE_MAX_AGE_SECONDS), so no entry outlives the staleness rule.
 */
export function validateRateEntry(input: RateEntryInput, now: string, maxAgeMs: number): ValidRateEntry {
  validatePair(input.sourceCurrency, input.destinationCurrency);
  const midRate = input.midRate;
  if (typeof midRate !== 'string' || !RATE_DECIMAL.test(midRate)) throw invalidInput('midRate', 'midRate must be a positive decimal string such as "0.9123"');
  if (!/[1-9]/.test(midRate)) throw invalidInput('midRate', 'midRate must be greater than 0');
  if (significantDigits(midRate) > RATE_SIGNIFICANT_DIGITS_MAX) throw invalidInput('midRate', `midRate has more than ${RATE_SIGNIFICANT_DIGITS_MAX} significant digits`);
  const nowMs = Date.parse(now);
  const from = input.validFrom === undefined ? nowMs : Date.parse(input.validFrom);
  const until = Date.parse(input.validUntil);
  if (Number.isNaN(from)) throw invalidInput('validFrom', 'validFrom must be an ISO 8601 date-time');
  if (Number.isNaN(until)) throw invalidInput('validUntil', 'validUntil must be an ISO 8601 date-time');
  if (from < nowMs - VALID_FROM_PAST_TOLERANCE_MS) throw invalidInput('validFrom', 'validFrom cannot be in the past: a rate applies from now or later (quotes already priced keep their rate)');
  if (from > nowMs + VALID_FROM_FUTURE_MAX_MS) throw invalidInput('validFrom', 'validFrom is more than 90 days ahead');
  if (until <= from) throw invalidInput('validUntil', 'validUntil must be after validFrom');
  if (until - from > maxAgeMs) {
    throw invalidInput('validUntil', `a rate may be valid for at most RATE_MAX_AGE_SECONDS=${maxAgeMs / 1000} seconds (until ${new Date(from + maxAgeMs).toISOString()}); set a new one before it ends`);
  }
  const reason = input.reason?.trim();
  if (input.reason !== undefined && (!reason || reason.length > 500)) throw invalidInput('reason', 'reason must be 1 to 500 characters');
  return {
    sourceCurrency: input.sourceCurrency,
    destinationCurrency: input.destinationCurrency,
    midRate: canonicalDecimal(midRate),
    validFrom: new Date(from).toISOString(),
    validUntil: new Date(until).toISOString(),
    reason: reason ?? null,
  };
}

/** "000.912300" → "0.9123": the same number, written once. */
export function canonicalDecimal(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f ? `${w}.${f}` : w;
}
