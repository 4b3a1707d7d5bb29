import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EstimateWithdrawalFeeRequest, QuotingRpc, WithdrawalFeeEstimate } from '@payments/contracts';
import { AuthenticatedRequest, RequirePermission } from '../auth/basic-auth.guard';
import { ApiOperationSpec } from '../openapi/api-operation-spec';
import { QUOTING_CLIENT } from '../rpc/clients';
import { ServiceClient } from '../rpc/service-client';

const ESTIMATE =
  'Network and application fees of withdrawing `amount` from a crypto internal account to `destinationAddress` on ' +
  '`cryptoNetwork`. Read-only (VIEW): nothing is held or sent. All amounts are in the smallest unit of the account ' +
  'currency; `netAmount` = `amount` − `totalFee`. BTC goes out on BITCOIN, LIGHTNING or SPARK; USDC on ETHEREUM, ' +
  'BASE, POLYGON or SOLANA; USDT on ETHEREUM, POLYGON, SOLANA, TRON or PLASMA. 400 INVALID_INPUT for a network the ' +
  'currency is not on or an address that network cannot receive at, INVALID_CURRENCY when the account holds another ' +
  'currency, AMOUNT_BELOW_FEES when nothing would arrive; 404 for an internal account that is not the platform\'s.';

/** Crypto withdrawal fee estimates (quoting service). */
@ApiTags('Cross-Currency Transfers')
@Controller()
export class CryptoFeesController {
  constructor(@Inject(QUOTING_CLIENT) private readonly quoting: ServiceClient) {}

  @Post('crypto/estimate-withdrawal-fee')
  @HttpCode(200)
  @RequirePermission('VIEW')
  @ApiOperationSpec({ summary: 'Estimate a crypto withdrawal fee', description: ESTIMATE, body: EstimateWithdrawalFeeRequest, ok: 'WithdrawalFeeEstimate', errors: [400, 401, 403, 404, 413, 415, 429, 500, 503] })
  estimate(@Req() r: AuthenticatedRequest, @Body() body: EstimateWithdrawalFeeRequest): Promise<WithdrawalFeeEstimate> {
    return this.quoting.call(QuotingRpc.estimateWithdrawalFee, { caller: r.caller, body });
  }
}
