import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateQuoteRequest, ExchangeRate, ExchangeRatesQuery, ExecuteQuoteRequest, FundQuoteRequest, MidRatesRequest, MidRatesResponse, Quote, QuotingRpc, RpcRequest, ScaAuthorization } from '@payments/contracts';
import type { Quoting } from './quoting';
import { QUOTING } from './quoting.tokens';
import { exchangeRates } from './rates/exchange-rates';
import { exchangeRateTerms } from './quotes/quote.service';
import { midRates } from './rates/mid-rates';

/** Thin RPC adapter of the quoting service. */
@Controller()
export class QuotingRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @MessagePattern(QuotingRpc.exchangeRates)
  async rates(@Payload() r: RpcRequest<ExchangeRatesQuery>): Promise<{ data: ExchangeRate[] }> {
    const terms = await exchangeRateTerms(this.quoting.host.dataSource, r.caller, r.body.sourceCurrency);
    return exchangeRates(this.quoting.rates, r.body, terms, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.createQuote)
  create(@Payload() r: RpcRequest<CreateQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.create(r.caller, r.body, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.getQuote)
  get(@Payload() r: RpcRequest<{ quoteId: string }>): Promise<Quote> {
    return this.quoting.quotes.get(r.caller, r.body.quoteId);
  }

  /** For accounts' receiver lookups (estimated rates); no fees. */
  @MessagePattern(QuotingRpc.midRates)
  mid(@Payload() r: RpcRequest<MidRatesRequest>): MidRatesResponse {
    return midRates(this.quoting.rates, r.body, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.executeQuote)
  execute(@Payload() r: RpcRequest<{ quoteId: string } & ExecuteQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.execute(r.caller, r.body.quoteId, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.authorizeQuote)
  authorize(@Payload() r: RpcRequest<{ quoteId: string; authorization: ScaAuthorization }>): Promise<Quote> {
    return this.quoting.authorizer.authorize(r.caller, r.body.quoteId, r.body.authorization, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.fundQuote)
  fund(@Payload() r: RpcRequest<FundQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.fund(r.caller, r.body, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.ping)
  async ping(): Promise<string> {
    await this.quoting.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
