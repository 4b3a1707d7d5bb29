import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { FxFeeSchedule, priceFxQuote } from '@payments/money';
import type { LockedCurrencySide, Mode } from '@payments/contracts';
import { QuoteEvent } from './quote.events';
import { QuoteState } from './quote.state';

/** Smallest and largest amount of one currency, smallest units (the platform's currency config). */
export interface AmountRange {
  min: number;
  max: number;
}

/** Prices and locks a quote. Everything impure (ids, clock, rates, fees, limits) arrives as data. */
export interface CreateQuote {
  type: 'CreateQuote';
  quoteId: string;
  transactionId: string;
  platformId: string;
  mode: Mode;
  sourceAccountId: string;
  destinationAccountId: string;
  customerId: string | null;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  description: string | null;
  /** Destination major units per source major unit, and source major units per BTC: exact decimal strings. */
  rate: { midRate: string; sourcePerBtc: string };
  fees: FxFeeSchedule;
  /** Limits of the sending currency (required) and of the receiving currency (when the platform configures it). */
  limits: { sending: AmountRange; receiving?: AmountRange };
  now: string;
  expiresAt: string;
}

/** Fired by the expiry timer; a no-op on an already expired quote, refused before expiresAt. */
export interface ExpireQuote {
  type: 'ExpireQuote';
  now: string;
}

export type QuoteCommand = CreateQuote | ExpireQuote;

const PRICING_ERRORS: Record<string, string> = {
  SAME_CURRENCY: 'SAME_CURRENCY',
  AMOUNT_BELOW_FEES: 'AMOUNT_BELOW_FEES',
  AMOUNT_UNSAFE: 'AMOUNT_OUT_OF_RANGE',
  INVALID_AMOUNT: 'INVALID_AMOUNT',
  UNKNOWN_CURRENCY: 'INVALID_CURRENCY',
};

function outOfRange(what: string, amount: number, range: AmountRange | undefined): DomainError | undefined {
  if (!range || (amount >= range.min && amount <= range.max)) return undefined;
  return new DomainError('AMOUNT_OUT_OF_RANGE', `the ${what} amount ${amount} is outside the platform's range [${range.min}, ${range.max}]`, { min: range.min, max: range.max, amount });
}

function create(c: CreateQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status !== 'NONE') return new DomainError('CONFLICT', 'the quote already exists');
  if (c.sendingCurrency === c.receivingCurrency) return new DomainError('SAME_CURRENCY', 'both accounts hold the same currency: use a same-currency transfer');
  const priced = priceFxQuote({
    sendingCurrency: c.sendingCurrency,
    receivingCurrency: c.receivingCurrency,
    midRate: c.rate.midRate,
    sendingPerBtc: c.rate.sourcePerBtc,
    fees: c.fees,
    lockedCurrencySide: c.lockedCurrencySide,
    lockedCurrencyAmount: c.lockedCurrencyAmount,
  });
  if (!priced.ok) return new DomainError(PRICING_ERRORS[priced.error.code] ?? 'INVALID_INPUT', priced.error.message);
  const p = priced.value;
  const rangeError = outOfRange('sending', p.totalSendingAmount, c.limits.sending) ?? outOfRange('receiving', p.totalReceivingAmount, c.limits.receiving);
  if (rangeError) return rangeError;
  return [
    {
      type: 'QuoteCreated.v1',
      data: {
        quoteId: c.quoteId,
        platformId: c.platformId,
        mode: c.mode,
        transactionId: c.transactionId,
        source: { sourceType: 'ACCOUNT', accountId: c.sourceAccountId },
        destination: { destinationType: 'ACCOUNT', accountId: c.destinationAccountId },
        customerId: c.customerId,
        sendingCurrency: c.sendingCurrency,
        receivingCurrency: c.receivingCurrency,
        lockedCurrencySide: c.lockedCurrencySide,
        lockedCurrencyAmount: c.lockedCurrencyAmount,
        totalSendingAmount: p.totalSendingAmount,
        totalReceivingAmount: p.totalReceivingAmount,
        exchangeRate: p.exchangeRate,
        feesIncluded: p.feesIncluded,
        platformFeesIncluded: p.platformFeesIncluded,
        rateDetails: p.rateDetails,
        midRate: c.rate.midRate,
        description: c.description,
        createdAt: c.now,
        expiresAt: c.expiresAt,
      },
    },
  ];
}

function expire(c: ExpireQuote, state: QuoteState): QuoteEvent[] | DomainError {
  switch (state.status) {
    case 'NONE':
      return new DomainError('QUOTE_NOT_FOUND', 'quote not found');
    case 'EXPIRED':
      return [];
    case 'PENDING':
      if (Date.parse(c.now) < Date.parse(state.expiresAt)) return new DomainError('QUOTE_NOT_EXPIRED', `the quote is valid until ${state.expiresAt}`);
      return [{ type: 'QuoteExpired.v1', data: { quoteId: state.quoteId, expiredAt: c.now } }];
    default:
      return assertNever(state);
  }
}

export const quoteDecider: Decider<QuoteState, QuoteCommand, QuoteEvent> = {
  initialState: { status: 'NONE' },
  decide(command, state) {
    switch (command.type) {
      case 'CreateQuote':
        return create(command, state);
      case 'ExpireQuote':
        return expire(command, state);
      default:
        return assertNever(command);
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'QuoteCreated.v1':
        return { status: 'PENDING', ...event.data };
      case 'QuoteExpired.v1':
        return state.status === 'NONE' ? state : { ...state, status: 'EXPIRED', expiredAt: event.data.expiredAt };
      default:
        return assertNever(event);
    }
  },
};
