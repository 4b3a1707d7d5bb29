import { ApiError, EXCHANGE_RATE_DEFAULT_SENDING_AMOUNT, ExchangeRate, ExchangeRatesQuery } from '@payments/contracts';
import { currencyObject, findCurrency, FxFeeSchedule, priceFxQuote, SUPPORTED_CURRENCY_CODES } from '@payments/money';
import type { AmountRange } from '../quotes/quote.decider';
import { destinationPaymentRail } from './destination-rails';
import { feeSchedule, PlatformFees } from './fee-schedule';
import { MidRate, RateSource } from './rate-source';

/** What the platform adds to GET /exchange-rates: its own fees and its min/max of the source currency (if configured). */
export interface ExchangeRateTerms {
  fees: PlatformFees;
  sendingRange?: AmountRange;
}

/**
 * GET /exchange-rates: the current mid rate of each pair from `sourceCurrency` (to the `destinationCurrency` list, or
 * to every other supported currency), with the fees a quote would add, and the published view of it: `sendingAmount`
 * (10000 by default) priced by `priceFxQuote` exactly as a SENDING quote of that amount. Rates hold until the end of
 * their window.
 */
export function exchangeRates(rates: RateSource, query: ExchangeRatesQuery, terms: ExchangeRateTerms, now: string): { data: ExchangeRate[] } {
  if (!findCurrency(query.sourceCurrency)) throw invalidCurrency('sourceCurrency', query.sourceCurrency);
  const requested = query.destinationCurrency === undefined ? undefined : [...new Set(([] as string[]).concat(query.destinationCurrency))];
  for (const code of requested ?? []) {
    if (!findCurrency(code)) throw invalidCurrency('destinationCurrency', code);
    if (code === query.sourceCurrency) {
      throw new ApiError('SAME_CURRENCY', 'source and destination currencies are the same: same-currency transfers need no exchange rate');
    }
  }
  const destinations = requested ?? SUPPORTED_CURRENCY_CODES.filter((c) => c !== query.sourceCurrency);
  const sendingAmount = query.sendingAmount ?? EXCHANGE_RATE_DEFAULT_SENDING_AMOUNT;
  const fees = feeSchedule(query.sourceCurrency, terms.fees);
  const data: ExchangeRate[] = [];
  for (const destination of destinations) {
    const mid = rates.rate(query.sourceCurrency, destination, now);
    if (!mid) continue;
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
