import { ApiError, EXCHANGE_RATE_DEFAULT_SENDING_AMOUNT, ExchangeRate, ExchangeRatesQuery } from '@payments/contracts';
import { currencyObject, findCurrency, FxFeeSchedule, priceFxQuote, SUPPORTED_CURRENCY_CODES } from '@payments/money';
import type { AmountRange } from '../quotes/quote.decider';
import { destinationPaymentRail } from './destination-rails';
import { feeSchedule, PlatformFees, ServiceFees } from './fee-schedule';
import type { MidRate, RateBook } from './rate-source';

/** What the platform adds to GET /exchange-rates: its own fees and its min/max of the source currency (if configured). */
export interface ExchangeRateTerms {
  fees: PlatformFees;
  /** The service's fees of the corridor to each destination (the sandbox's when absent). */
  serviceFees?: (destinationCurrency: string) => ServiceFees;
  sendingRange?: AmountRange;
}

/**
 * GET /exchange-rates: the current mid rate of each pair from `sourceCurrency` (to the `destinationCurrency` list, or
 * to every other supported currency), with the fees a quote would add, and the published view of it: `sendingAmount`
 * (10000 by default) priced by `priceFxQuote` exactly as a SENDING quote of that amount. Rates hold until the end of
 * their window. A pair the book cannot price is left out, its refusal kept in `refusals` (listExchangeRates answers
 * it when nothing at all could be priced).
 */
export function exchangeRates(rates: RateBook, query: ExchangeRatesQuery & { sourceCurrency: string }, terms: ExchangeRateTerms, now: string, refusals: ApiError[] = []): { data: ExchangeRate[] } {
  if (!findCurrency(query.sourceCurrency)) throw invalidCurrency('sourceCurrency', query.sourceCurrency);
  const requested = query.destinationCurrency === undefined ? undefined : [...new Set(([] as string[]).concat(query.destinationCurrency))];
  for (const code of requested ?? []) if (!findCurrency(code)) throw invalidCurrency('destinationCurrency', code);
  // The source among the destinations has no rate (a same-currency transfer needs none): it is passed over, as the
  // published API's 400 codes have no SAME_CURRENCY for this operation.
  const destinations = (requested ?? SUPPORTED_CURRENCY_CODES).filter((c) => c !== query.sourceCurrency);
  const sendingAmount = query.sendingAmount ?? EXCHANGE_RATE_DEFAULT_SENDING_AMOUNT;
  const data: ExchangeRate[] = [];
  for (const destination of destinations) {
    const found = rates.lookup(query.sourceCurrency, destination);
    if (!found.ok) {
      refusals.push(found.error);
      continue;
    }
    const mid = found.rate;
    const fees = feeSchedule(query.sourceCurrency, terms.fees, terms.serviceFees?.(destination));
    const rate = Number(mid.midRate);
    data.push({
      sourceCurrency: currencyObject(query.sourceCurrency),
      destinationCurrency: currencyObject(destination),
      sendingAmount,
      minSendingAmount: terms.sendingRange?.min ?? 0,
      maxSendingAmount: terms.sendingRange?.max ?? 0,
      destinationPaymentRail: destinationPaymentRail(destination),
      ...priced(mid, fees, sendingAmount),
      updatedAt: mid.updatedAt ?? now,
      rate,
      inverseRate: 1 / rate,
      variableFeeRate: (fees.gridVariableFeeBps + fees.platformVariableFeeBps) / 100,
      fixedFee: fees.gridFixedFee + fees.platformFixedFee,
      platformVariableFeeRate: fees.platformVariableFeeBps / 100,
      platformFixedFee: fees.platformFixedFee,
      counterpartyFixedFee: fees.counterpartyFixedFee,
      expiresAt: mid.validUntil,
    });
  }
  return { data };
}

/**
 * GET /exchange-rates as asked: from `sourceCurrency`, or without one from each currency the platform configured
 * (`sources`), a destination equal to the source then being passed over rather than refused. Pairs production cannot
 * price are left out; when none at all can be priced, the answer is the refusal (501 no source, 503 stale or
 * unavailable) rather than an empty list that would look like a platform without currencies.
 */
export async function listExchangeRates(
  rates: RateBook,
  query: ExchangeRatesQuery,
  sources: () => Promise<string[]>,
  termsOf: (sourceCurrency: string) => Promise<ExchangeRateTerms>,
  now: string,
): Promise<{ data: ExchangeRate[] }> {
  const refusals: ApiError[] = [];
  const data: ExchangeRate[] = [];
  if (query.sourceCurrency !== undefined) {
    data.push(...exchangeRates(rates, { ...query, sourceCurrency: query.sourceCurrency }, await termsOf(query.sourceCurrency), now, refusals).data);
  } else {
    for (const sourceCurrency of await sources()) {
      if (!findCurrency(sourceCurrency)) continue;
      data.push(...exchangeRates(rates, { ...query, sourceCurrency }, await termsOf(sourceCurrency), now, refusals).data);
    }
  }
  const refusal = data.length === 0 ? mostTelling(refusals) : undefined;
  if (refusal) throw refusal;
  return { data };
}

/** Of the refusals of a list, the one that tells an operator most: a stale rate, then a source not delivered, then none. */
function mostTelling(refusals: ApiError[]): ApiError | undefined {
  const order = ['RATE_STALE', 'RATE_UNAVAILABLE', 'RATE_SOURCE_NOT_CONFIGURED'];
  return refusals.filter((r) => order.includes(r.code)).sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code))[0];
}

/**
 * The amounts of a SENDING quote of `sendingAmount` at this rate (the same `priceFxQuote` call a quote makes). An
 * amount that does not cover the fees (0 included) receives 0, at the inverse mid rate, with the fees it would owe.
 */
function priced(mid: MidRate, fees: FxFeeSchedule, sendingAmount: number): Pick<ExchangeRate, 'receivingAmount' | 'exchangeRate' | 'fees'> {
  const fixed = fees.gridFixedFee + fees.platformFixedFee;
  const result = priceFxQuote({
    sendingCurrency: mid.sourceCurrency,
    receivingCurrency: mid.destinationCurrency,
    midRate: mid.midRate,
    sendingPerBtc: mid.sourcePerBtc,
    fees,
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: sendingAmount,
  });
  if (result.ok) return { receivingAmount: result.value.totalReceivingAmount, exchangeRate: result.value.exchangeRate, fees: { fixed, total: result.value.feesIncluded } };
  if (result.error.code === 'AMOUNT_UNSAFE') {
    throw new ApiError('AMOUNT_OUT_OF_RANGE', `sendingAmount ${sendingAmount} is too large to price in ${mid.destinationCurrency}`, { errors: [{ field: 'sendingAmount', message: 'too large' }] });
  }
  // The variable fee rounds up, as priceFxQuote's does (V = ceil(S × b / 10000)).
  const bps = BigInt(fees.gridVariableFeeBps + fees.platformVariableFeeBps);
  const variable = Number((BigInt(sendingAmount) * bps + 9_999n) / 10_000n);
  return { receivingAmount: 0, exchangeRate: 1 / Number(mid.midRate), fees: { fixed, total: variable + fixed } };
}

const invalidCurrency = (field: string, code: string) =>
  new ApiError('INVALID_CURRENCY', `${code} is not a supported currency`, { errors: [{ field, message: 'not a supported currency' }] });
