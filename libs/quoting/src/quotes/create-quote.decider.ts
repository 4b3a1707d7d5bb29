import { DomainError } from '@payments/eventsourcing';
import { FxFeeSchedule, priceFxQuote } from '@payments/money';
import type { LockedCurrencySide, Mode, PaymentInstructions, QuoteDestination, QuoteSource, RatePricing, ScaChallenge } from '@payments/contracts';
import type { FeeScheduleRef } from '../rates/fee-schedule';
import { QuoteEvent, QuoteRequestExtras, QuoteTerms, requestExtras } from './quote.events';
import type { QuoteState } from './quote.state';
import { executedEvent } from './quote-executed';

/** Smallest and largest amount of one currency, smallest units (the platform's currency config). */
export interface AmountRange {
  min: number;
  max: number;
}

/** A challenge as the service prepares it (ids, expiry and factor options are impure); the decider sets the purpose. */
export type ChallengeOffer = Omit<ScaChallenge, 'purpose'>;

/** Prices and locks a quote. Everything impure (ids, clock, rates, fees, limits, instructions) arrives as data. */
export interface CreateQuote extends QuoteRequestExtras {
  type: 'CreateQuote';
  quoteId: string;
  transactionId: string;
  platformId: string;
  mode: Mode;
  source: QuoteSource;
  destination: QuoteDestination;
  customerId: string | null;
  sendingCurrency: string;
  receivingCurrency: string;
  lockedCurrencySide: LockedCurrencySide;
  lockedCurrencyAmount: number;
  description: string | null;
  immediatelyExecute: boolean;
  paymentInstructions: PaymentInstructions[] | null;
  /** Destination major units per source major unit, and source major units per BTC: exact decimal strings. */
  rate: { midRate: string; sourcePerBtc: string };
  /** What priced the rate (source, publication time), kept with the quote for the operator API. */
  pricing?: RatePricing;
  fees: FxFeeSchedule;
  /** The service fee schedule (id and version) that set the service's part of `fees`; null: none (no service fee). */
  serviceFeeSchedule?: FeeScheduleRef | null;
  /** Limits of the sending currency (required) and of the receiving currency (when the platform configures it). */
  limits: { sending: AmountRange; receiving?: AmountRange };
  /** Customers in SCA regions: the rounds to pass, in order, and the first challenge. */
  sca: { purposes: string[]; firstChallenge: ChallengeOffer } | null;
  now: string;
  expiresAt: string;
}

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

function price(c: CreateQuote): QuoteTerms | DomainError {
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
  return {
    quoteId: c.quoteId,
    platformId: c.platformId,
    mode: c.mode,
    transactionId: c.transactionId,
    source: c.source,
    destination: c.destination,
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
    ...(c.serviceFeeSchedule !== undefined ? { serviceFeeSchedule: c.serviceFeeSchedule } : {}),
    description: c.description,
    immediatelyExecute: c.immediatelyExecute,
    paymentInstructions: c.paymentInstructions,
    scaPurposes: c.sca?.purposes ?? [],
    createdAt: c.now,
    expiresAt: c.expiresAt,
    ...requestExtras(c),
    ...(c.pricing ? { pricing: c.pricing } : {}),
  };
}

/** New quote: PENDING; PENDING_AUTHORIZATION with a first challenge for SCA customers; PROCESSING when executed at once. */
export function createQuote(c: CreateQuote, state: QuoteState): QuoteEvent[] | DomainError {
  if (state.status !== 'NONE') return new DomainError('CONFLICT', 'the quote already exists');
  if (c.sendingCurrency === c.receivingCurrency) return new DomainError('SAME_CURRENCY', 'both sides hold the same currency: use a same-currency transfer');
  if (c.immediatelyExecute && c.source.sourceType === 'REALTIME_FUNDING') {
    return new DomainError('INVALID_INPUT', 'a REALTIME_FUNDING quote executes when its funds arrive: immediatelyExecute does not apply', { errors: [{ field: 'immediatelyExecute', message: 'not allowed with sourceType REALTIME_FUNDING' }] });
  }
  if (c.sca && c.sca.purposes.length === 0) return new DomainError('INVALID_INPUT', 'an SCA quote needs at least one round');
  const terms = price(c);
  if (terms instanceof DomainError) return terms;
  const events: QuoteEvent[] = [{ type: 'QuoteCreated.v1', data: terms }];
  if (c.sca) {
    events.push({ type: 'ScaChallengeIssued.v1', data: { challenge: { ...c.sca.firstChallenge, purpose: c.sca.purposes[0] }, round: 0, issuedAt: c.now } });
  } else if (c.immediatelyExecute) {
    events.push(executedEvent(terms, c.now, 'ACCOUNT'));
  }
  return events;
}
