import { ApiError, CallerContext, EstimateWithdrawalFeeRequest, WithdrawalFeeEstimate } from '@payments/contracts';
import { CRYPTO_CURRENCY_CODES } from '@payments/money';
import type { AccountDirectory } from '../accounts/account-directory';
import type { WithdrawalFeePricing } from '../fees/fee-schedule.service';
import { destinationAddressProblem, estimateWithdrawal, WITHDRAWABLE_CURRENCY_CODES, WITHDRAWAL_NETWORK_FEES } from './withdrawal-fees';

const invalid = (code: string, field: string, message: string) => new ApiError(code, `${field} ${message}`, { errors: [{ field, message }] });

/**
 * POST /crypto/estimate-withdrawal-fee: checks the request against the account and the network, then prices it with
 * the sandbox's table, or in production with the operator's network fee (501 without one).
 */
export class WithdrawalFeeEstimator {
  constructor(
    private readonly accounts: Pick<AccountDirectory, 'accountCurrency'>,
    private readonly fees: WithdrawalFeePricing,
  ) {}

  async estimate(caller: CallerContext, request: EstimateWithdrawalFeeRequest): Promise<WithdrawalFeeEstimate> {
    if (!CRYPTO_CURRENCY_CODES.includes(request.currency)) throw invalid('INVALID_CURRENCY', 'currency', `must be a crypto currency (${WITHDRAWABLE_CURRENCY_CODES.join(', ')})`);
    // USDB (Embedded Wallets) is on no withdrawal network: it leaves through a quote.
    if (!WITHDRAWABLE_CURRENCY_CODES.includes(request.currency)) throw invalid('INVALID_CURRENCY', 'currency', `${request.currency} is not withdrawn to an external address; one of ${WITHDRAWABLE_CURRENCY_CODES.join(', ')}`);
    // Which networks a currency is on is a fact of the currency (the table); what each costs is the sandbox's or configured.
    if (!WITHDRAWAL_NETWORK_FEES[request.currency]?.[request.cryptoNetwork]) throw invalid('INVALID_INPUT', 'cryptoNetwork', `${request.currency} is not withdrawn on ${request.cryptoNetwork}; one of ${Object.keys(WITHDRAWAL_NETWORK_FEES[request.currency] ?? {}).join(', ')}`);
    const problem = destinationAddressProblem(request.cryptoNetwork, request.destinationAddress);
    if (problem) throw invalid('INVALID_INPUT', 'destinationAddress', `is not a ${request.cryptoNetwork} address: ${problem}`);
    await this.assertHolds(caller, request.internalAccountId, request.currency);
    const fee = await this.fees.withdrawalFees(caller, request.currency, request.cryptoNetwork);
    const estimate = estimateWithdrawal(request.amount, fee, fee.applicationFeeBps);
    if (!estimate) {
      throw new ApiError('AMOUNT_BELOW_FEES', `amount ${request.amount} does not cover the fees: nothing would arrive`, { errors: [{ field: 'amount', message: 'must be more than the network and application fees' }], networkFee: fee.networkFee });
    }
    return estimate;
  }

  /** The internal account is this platform's (else 404, as for one that does not exist) and holds `currency`. */
  private async assertHolds(caller: CallerContext, accountId: string, currency: string): Promise<void> {
    const notFound = () => new ApiError('REFERENCE_NOT_FOUND', 'internal account not found', { errors: [{ field: 'internalAccountId', message: 'no such internal account' }] });
    const account = await this.accounts.accountCurrency(caller, accountId).catch((error: unknown) => {
      throw error instanceof ApiError && error.code === 'REFERENCE_NOT_FOUND' ? notFound() : error;
    });
    if (account.kind !== 'INTERNAL') throw notFound();
    if (account.currency !== currency) throw invalid('INVALID_CURRENCY', 'currency', `must be the account's currency, ${account.currency}`);
  }
}
