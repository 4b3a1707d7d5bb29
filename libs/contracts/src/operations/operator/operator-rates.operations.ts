import { ListOperatorRatesQuery, OperatorRateHistoryQuery, SetOperatorRateRequest, WithdrawOperatorRateQuery } from '../../operator/rates.dto';
import { OperatorRatesRpc } from '../../operator/rates.rpc';
import { operation } from '../http-operation';

const LIST =
  'The rates production prices from: the operator table (per pair, the entry that applies now, or the last one, marked stale) and the ' +
  "ECB's euro reference rates when ECB_RATES_URL is set, with each source's state (publication and fetch times, maximum age, last " +
  'error). With both `sourceCurrency` and `destinationCurrency`, `effective` tells what a quote in that corridor gets now: the rate ' +
  'and its source, or the error it answers (501 RATE_SOURCE_NOT_CONFIGURED, 503 RATE_STALE or RATE_UNAVAILABLE). Precedence: an ' +
  "operator entry valid now (the pair as set, else its inverse at 1/midRate), then the ECB's rate (cross rates through EUR).";
const SET =
  'Sets the mid rate of a pair (destination major units per source major unit, an exact decimal string) for a window: from ' +
  '`validFrom` (now when left out) until `validUntil` (after validFrom, at most RATE_MAX_AGE_SECONDS later). Appended to the ' +
  "table's history, never overwriting: the most recently set entry whose window has begun applies, and while valid it wins over " +
  "the ECB's rate. The other direction is priced at 1/midRate unless it has an entry of its own. Both currencies must be supported " +
  'and different. Recorded in the audit log (`rates.set`) with the change.';
const WITHDRAW =
  "Ends the operator table's rate of the pair now (a WITHDRAWN entry is appended; history is kept): the pair prices from the ECB " +
  "again, or is refused. 404 when the pair as written has no operator rate. Recorded in the audit log (`rates.withdraw`).";

/** The exchange rates production prices from (quoting service). */
export const OPERATOR_RATES_OPERATIONS = [
  operation({
    operationId: 'listOperatorRates',
    method: 'GET',
    path: '/rates',
    tag: 'Rates',
    summary: 'The current rates, their sources, validity and staleness',
    description: LIST,
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorRatesRpc.list,
    query: ListOperatorRatesQuery,
    status: 200,
    response: 'OperatorRateList',
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'listOperatorRateHistory',
    method: 'GET',
    path: '/rates/history',
    tag: 'Rates',
    summary: "The operator rate table's history, newest first",
    description: 'Every entry ever set or withdrawn (entries are never changed or removed); filter by sourceCurrency and/or destinationCurrency.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorRatesRpc.history,
    query: OperatorRateHistoryQuery,
    status: 200,
    response: { page: 'OperatorRateEntry' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'setOperatorRate',
    method: 'PUT',
    path: '/rates/{sourceCurrency}/{destinationCurrency}',
    tag: 'Rates',
    summary: 'Set the mid rate of a currency pair for a validity window',
    description: SET,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorRatesRpc.set,
    body: SetOperatorRateRequest,
    status: 200,
    response: 'OperatorRateEntry',
    request: ({ params, body }) => ({ ...body, sourceCurrency: params.sourceCurrency, destinationCurrency: params.destinationCurrency }),
  }),
  operation({
    operationId: 'withdrawOperatorRate',
    method: 'DELETE',
    path: '/rates/{sourceCurrency}/{destinationCurrency}',
    tag: 'Rates',
    summary: "Withdraw the operator table's rate of a pair",
    description: WITHDRAW,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'quoting',
    rpc: OperatorRatesRpc.withdraw,
    query: WithdrawOperatorRateQuery,
    status: 200,
    response: 'OperatorRateEntry',
    request: ({ params, query }) => ({ ...query, sourceCurrency: params.sourceCurrency, destinationCurrency: params.destinationCurrency }),
  }),
  operation({
    operationId: 'getQuotePricing',
    method: 'GET',
    path: '/quotes/{quoteId}/pricing',
    tag: 'Rates',
    summary: 'Which rate source, published when, priced a quote',
    description: "Any platform's quote, either mode: its mid rate, source (SANDBOX, OPERATOR_TABLE, ECB), derivation, publication time and validity, as recorded when it was created.",
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'quoting',
    rpc: OperatorRatesRpc.quotePricing,
    status: 200,
    response: 'QuotePricing',
    request: ({ params }) => ({ quoteId: params.quoteId }),
  }),
];
