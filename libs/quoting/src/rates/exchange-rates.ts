import { ApiError, ExchangeRate, ExchangeRatesQuery } from '@payments/contracts';
import { currencyObject, findCurrency, SUPPORTED_CURRENCY_CODES } from '@payments/money';
import { feeSchedule, PlatformFees } from './fee-schedule';
import { RateSource } from './rate-source';

/**
 * GET /exchange-rates: the current mid rate of each pair from `sourceCurrency` (to one `destinationCurrency`, or to
 * every other supported currency), with the fees a quote would add. Rates hold until the end of their window.
 */
export function exchangeRates(rates: RateSource, query: ExchangeRatesQuery, platformFees: PlatformFees, now: string): { data: ExchangeRate[] } {
  if (!findCurrency(query.sourceCurrency)) throw invalidCurrency('sourceCurrency', query.sourceCurrency);
  if (query.destinationCurrency !== undefined && !findCurrency(query.destinationCurrency)) throw invalidCurrency('destinationCurrency', query.destinationCurrency);
  if (query.destinationCurrency === query.sourceCurrency) {
    throw new ApiError('SAME_CURRENCY', 'source and destination currencies are the same: same-currency transfers need no exchange rate');
  }
  const destinations = query.destinationCurrency ? [query.destinationCurrency] : SUPPORTED_CURRENCY_CODES.filter((c) => c !== query.sourceCurrency);
  const fees = feeSchedule(query.sourceCurrency, platformFees);
  const data: ExchangeRate[] = [];
  for (const destination of destinations) {
    const mid = rates.rate(query.sourceCurrency, destination, now);
    if (!mid) continue;
    const rate = Number(mid.midRate);
    data.push({
      sourceCurrency: currencyObject(query.sourceCurrency),
      destinationCurrency: currencyObject(destination),
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

const invalidCurrency = (field: string, code: string) =>
  new ApiError('INVALID_CURRENCY', `${code} is not a supported currency`, { errors: [{ field, message: 'not a supported currency' }] });
