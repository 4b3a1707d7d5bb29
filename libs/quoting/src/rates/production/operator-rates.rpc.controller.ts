import { Controller, Inject } from '@nestjs/common';
import {
  ListOperatorRatesQuery,
  OperatorRateEntry,
  OperatorRateHistoryQuery,
  OperatorRateList,
  OperatorRatesRpc,
  Page,
  QuotePricing,
  RatePairBody,
  requireOperator,
  RpcRequest,
  SetOperatorRateRequest,
  WithdrawOperatorRateQuery,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Quoting } from '../../quoting';
import { QUOTING } from '../../quoting.tokens';

/** Thin RPC adapter of the operator API's rates (operator role checked by @Handles, again here for the principal). */
@Controller()
export class OperatorRatesRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(OperatorRatesRpc.list)
  list(r: RpcRequest<ListOperatorRatesQuery>): Promise<OperatorRateList> {
    return this.quoting.operatorRates.list(r.body, new Date().toISOString());
  }

  @Handles(OperatorRatesRpc.history)
  history(r: RpcRequest<OperatorRateHistoryQuery>): Promise<Page<OperatorRateEntry>> {
    return this.quoting.operatorRates.history(r.body);
  }

  @Handles(OperatorRatesRpc.set)
  set(r: RpcRequest<SetOperatorRateRequest & RatePairBody>): Promise<OperatorRateEntry> {
    return this.quoting.operatorRates.set(r.caller, requireOperator(r.caller, 'ADMIN'), r.body, new Date().toISOString());
  }

  @Handles(OperatorRatesRpc.withdraw)
  withdraw(r: RpcRequest<WithdrawOperatorRateQuery & RatePairBody>): Promise<OperatorRateEntry> {
    return this.quoting.operatorRates.withdraw(r.caller, requireOperator(r.caller, 'ADMIN'), r.body, new Date().toISOString());
  }

  @Handles(OperatorRatesRpc.quotePricing)
  quotePricing(r: RpcRequest<{ quoteId: string }>): Promise<QuotePricing> {
    return this.quoting.operatorRates.quotePricing(r.body.quoteId);
  }
}
