import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type { ListOperatorRatesQuery, OperatorRateEntry, OperatorRateHistoryQuery, OperatorRateList, QuotePricing, SetOperatorRateRequest, WithdrawOperatorRateQuery } from './rates.dto';

export interface RatePairBody {
  sourceCurrency: string;
  destinationCurrency: string;
}

/** Exchange rates of the deployment (quoting service): the operator rate table, the sources, and what priced a quote. */
export const OperatorRatesRpc = {
  list: operatorRpc<ListOperatorRatesQuery, OperatorRateList>('quoting.operator.rates.list', 'VIEWER'),
  history: operatorRpc<OperatorRateHistoryQuery, Page<OperatorRateEntry>>('quoting.operator.rates.history', 'VIEWER'),
  set: operatorRpc<SetOperatorRateRequest & RatePairBody, OperatorRateEntry>('quoting.operator.rates.set', 'ADMIN'),
  withdraw: operatorRpc<WithdrawOperatorRateQuery & RatePairBody, OperatorRateEntry>('quoting.operator.rates.withdraw', 'ADMIN'),
  quotePricing: operatorRpc<{ quoteId: string }, QuotePricing>('quoting.operator.quotes.pricing', 'VIEWER'),
} as const;
