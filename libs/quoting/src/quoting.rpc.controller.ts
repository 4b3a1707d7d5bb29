import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateQuoteRequest, ExchangeRate, ExchangeRatesQuery, Quote, QuotingRpc, RpcRequest } from '@payments/contracts';
import type { Quoting } from './quoting';
import { QUOTING } from './quoting.tokens';
import { exchangeRates } from './rates/exchange-rates';
import { NO_PLATFORM_FEES } from './rates/fee-schedule';

/** Thin RPC adapter of the quoting service. */
@Controller()
export class QuotingRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @MessagePattern(QuotingRpc.exchangeRates)
  rates(@Payload() r: RpcRequest<ExchangeRatesQuery>): { data: ExchangeRate[] } {
    return exchangeRates(this.quoting.rates, r.body, NO_PLATFORM_FEES, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.createQuote)
  create(@Payload() r: RpcRequest<CreateQuoteRequest>): Promise<Quote> {
    return this.quoting.quotes.create(r.caller, r.body, new Date().toISOString());
  }

  @MessagePattern(QuotingRpc.getQuote)
  get(@Payload() r: RpcRequest<{ quoteId: string }>): Promise<Quote> {
    return this.quoting.quotes.get(r.caller, r.body.quoteId);
  }

  @MessagePattern(QuotingRpc.ping)
  async ping(): Promise<string> {
    await this.quoting.host.dataSource.query('SELECT 1');
    return 'pong';
  }
}
