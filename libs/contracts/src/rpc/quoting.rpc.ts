/** RPC patterns of the quoting service. */
export const QuotingRpc = {
  ping: 'quoting.ping',
  exchangeRates: 'quoting.exchange-rates.list',
  createQuote: 'quoting.quotes.create',
  getQuote: 'quoting.quotes.get',
} as const;
