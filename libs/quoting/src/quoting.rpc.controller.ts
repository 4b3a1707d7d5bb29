import { Controller, Inject } from '@nestjs/common';
import {
  AuthorizeQuoteBody,
  CreateQuoteRequest,
  ExchangeRates,
  ExchangeRatesQuery,
  ExecuteQuoteBody,
  FundQuoteRequest,
  MidRatesRequest,
  MidRatesResponse,
  Quote,
  QuoteIdBody,
  QuotingRpc,
  RpcRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Quoting } from './quoting';
import { QUOTING } from './quoting.tokens';
import { listExchangeRates } from './rates/exchange-rates';
import { configuredCurrencies, exchangeRateTerms } from './quotes/quote.service';
import { midRates } from './rates/mid-rates';

/** Thin RPC adapter of the quoting service. */
@Controller()
export class QuotingRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(QuotingRpc.exchangeRates)
  async rates(r: RpcRequest<ExchangeRatesQuery>): Promise<ExchangeRates> {
    const db = this.quoting.host.dataSource;
    const now = new Date().toISOString();
    const book = await this.quoting.rates.book(r.caller.mode, now);
    return listExchangeRates(book, r.body, () => configuredCurrencies(db, r.caller), (source) => exchangeRateTerms(db, r.caller, source, this.quoting.fees), now);
  }

  @Handles(QuotingRpc.createQuote)
  create(r: RpcRequest<CreateQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.create(r.caller, r.body, new Date().toISOString());
  }

  @Handles(QuotingRpc.getQuote)
  get(r: RpcRequest<QuoteIdBody>): Promise<Quote> {
    return this.quoting.quotes.get(r.caller, r.body.quoteId);
  }

  /** For accounts' receiver lookups (estimated rates); no fees. */
  @Handles(QuotingRpc.midRates)
  async mid(r: RpcRequest<MidRatesRequest>): Promise<MidRatesResponse> {
    return midRates(await this.quoting.rates.book(r.caller.mode, new Date().toISOString()), r.body);
  }

  @Handles(QuotingRpc.executeQuote)
  execute(r: RpcRequest<ExecuteQuoteBody>): Promise<Quote> {
    return this.quoting.quotes.execute(r.caller, r.body.quoteId, new Date().toISOString(), r.body.walletSignature);
  }

  @Handles(QuotingRpc.authorizeQuote)
  authorize(r: RpcRequest<AuthorizeQuoteBody>): Promise<Quote> {
    return this.quoting.authorizer.authorize(r.caller, r.body.quoteId, r.body.authorization, new Date().toISOString());
  }

  @Handles(QuotingRpc.fundQuote)
  fund(r: RpcRequest<FundQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.fund(r.caller, r.body, new Date().toISOString());
  }

  @Handles(QuotingRpc.ping)
  async ping(): Promise<'pong'> {
    await this.quoting.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
