import { Controller, Inject } from '@nestjs/common';
import { EstimateWithdrawalFeeRequest, QuotingRpc, RpcRequest, WithdrawalFeeEstimate } from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Quoting } from '../quoting';
import { QUOTING } from '../quoting.tokens';

/** Thin RPC adapter of crypto withdrawal fee estimates. */
@Controller()
export class CryptoFeesRpcController {
  constructor(@Inject(QUOTING) private readonly quoting: Quoting) {}

  @Handles(QuotingRpc.estimateWithdrawalFee)
  estimate(r: RpcRequest<EstimateWithdrawalFeeRequest>): Promise<WithdrawalFeeEstimate> {
    return this.quoting.withdrawalFees.estimate(r.caller, r.body);
  }
}
