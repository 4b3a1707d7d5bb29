import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { EstimateWithdrawalFeeRequest, QuotingRpc, RpcRequest, WithdrawalFeeEstimate } from '@payments/contracts';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';

/** Thin RPC adapter of crypto withdrawal fee estimates. */
@Controller()
export class CryptoFeesRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @MessagePattern(QuotingRpc.estimateWithdrawalFee)
  estimate(@Payload() r: RpcRequest<EstimateWithdrawalFeeRequest>): Promise<WithdrawalFeeEstimate> {
    return this.quoting.withdrawalFees.estimate(r.caller, r.body);
  }
}
