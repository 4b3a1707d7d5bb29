/** RPC patterns of the quoting service. */
export const QuotingRpc = {
  ping: 'quoting.ping',
  exchangeRates: 'quoting.exchange-rates.list',
  createQuote: 'quoting.quotes.create',
  getQuote: 'quoting.quotes.get',
  executeQuote: 'quoting.quotes.execute',
  authorizeQuote: 'quoting.quotes.authorize',
  /** For payments (POST /sandbox/send): `FundQuoteRequest` → the Quote, now PROCESSING. */
  fundQuote: 'quoting.quotes.fund',
  /** GET /receiver/uma/{receiverUmaAddress}: ReceiverLookupQuery & {receiverUmaAddress} → UmaReceiverLookup. */
  umaLookup: 'quoting.receiver.uma',
  /** GET /uma-providers: ListUmaProvidersQuery → Page<UmaProvider>. */
  listUmaProviders: 'quoting.uma-providers.list',
  /** POST /crypto/estimate-withdrawal-fee: EstimateWithdrawalFeeRequest → WithdrawalFeeEstimate. */
  estimateWithdrawalFee: 'quoting.crypto.estimate-withdrawal-fee',
  /** For accounts' receiver lookups: MidRatesRequest → MidRatesResponse (mid rates, no fees). */
  midRates: 'quoting.rates.mid',
} as const;

/** QuotingRpc.midRates: mid rates (no fees) of currency pairs, for estimates elsewhere (accounts' receiver lookups). */
export interface MidRatesRequest {
  pairs: { from: string; to: string }[];
}

export interface MidRatesResponse {
  /** In request order; `rate` is units of `to` per unit of `from` (major units), null when the pair cannot be quoted. */
  rates: { from: string; to: string; rate: number | null }[];
}
