import type { EstimateWithdrawalFeeRequest, WithdrawalFeeEstimate } from '../crypto';
import type { ReceiverLookupQuery } from '../accounts';
import type { Page } from '../pagination';
import type { CreateQuoteRequest, ExchangeRate, ExchangeRatesQuery, ExecuteQuoteRequest, FundQuoteRequest, Quote, ScaAuthorization } from '../quotes';
import type { ListUmaProvidersQuery, UmaProvider, UmaReceiverLookup } from '../uma';
import { pingRpc } from './rpc';
import { rpc } from './rpc-contract';

/** RPC contracts of the quoting service. */
export const QuotingRpc = {
  ping: pingRpc('quoting.ping'),
  exchangeRates: rpc<ExchangeRatesQuery, ExchangeRates>('quoting.exchange-rates.list'),
  createQuote: rpc<CreateQuoteRequest, Quote>('quoting.quotes.create'),
  getQuote: rpc<QuoteIdBody, Quote>('quoting.quotes.get'),
  executeQuote: rpc<ExecuteQuoteBody, Quote>('quoting.quotes.execute'),
  authorizeQuote: rpc<AuthorizeQuoteBody, Quote>('quoting.quotes.authorize'),
  /** For payments (POST /sandbox/send): `FundQuoteRequest` → the Quote, now PROCESSING. */
  fundQuote: rpc<FundQuoteRequest, Quote>('quoting.quotes.fund'),
  /** GET /receiver/uma/{receiverUmaAddress}: UmaLookupBody → UmaReceiverLookup. */
  umaLookup: rpc<UmaLookupBody, UmaReceiverLookup>('quoting.receiver.uma'),
  /** GET /uma-providers: ListUmaProvidersQuery → Page<UmaProvider>. */
  listUmaProviders: rpc<ListUmaProvidersQuery, Page<UmaProvider>>('quoting.uma-providers.list'),
  /** POST /crypto/estimate-withdrawal-fee: EstimateWithdrawalFeeRequest → WithdrawalFeeEstimate. */
  estimateWithdrawalFee: rpc<EstimateWithdrawalFeeRequest, WithdrawalFeeEstimate>('quoting.crypto.estimate-withdrawal-fee'),
  /** For accounts' receiver lookups: MidRatesRequest → MidRatesResponse (mid rates, no fees). */
  midRates: rpc<MidRatesRequest, MidRatesResponse>('quoting.rates.mid'),
} as const;

/** QuotingRpc.exchangeRates: GET /exchange-rates. */
export interface ExchangeRates {
  data: ExchangeRate[];
}

export interface QuoteIdBody {
  quoteId: string;
}

/** QuotingRpc.executeQuote: POST /quotes/{quoteId}/execute. */
export interface ExecuteQuoteBody extends QuoteIdBody, ExecuteQuoteRequest {
  /** The `Service-Wallet-Signature` header: required when the source is an Embedded Wallet. */
  walletSignature?: string;
}

/** QuotingRpc.authorizeQuote: POST /quotes/{quoteId}/authorize. */
export interface AuthorizeQuoteBody extends QuoteIdBody {
  authorization: ScaAuthorization;
}

/** QuotingRpc.umaLookup: GET /receiver/uma/{receiverUmaAddress}. */
export interface UmaLookupBody extends ReceiverLookupQuery {
  receiverUmaAddress: string;
}

/** QuotingRpc.midRates: mid rates (no fees) of currency pairs, for estimates elsewhere (accounts' receiver lookups). */
export interface MidRatesRequest {
  pairs: { from: string; to: string }[];
}

export interface MidRatesResponse {
  /** In request order; `rate` is units of `to` per unit of `from` (major units), null when the pair cannot be quoted. */
  rates: { from: string; to: string; rate: number | null }[];
}
