import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/** Chains a crypto withdrawal can go out on (interop's CryptoNetwork, plus LIGHTNING for BTC). */
export const CRYPTO_NETWORKS = ['BITCOIN', 'LIGHTNING', 'SPARK', 'ETHEREUM', 'BASE', 'POLYGON', 'SOLANA', 'TRON', 'PLASMA'] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

/** POST /crypto/estimate-withdrawal-fee. */
export class EstimateWithdrawalFeeRequest {
  @IsString() @MaxLength(64) internalAccountId!: string;
  @IsString() @Matches(/^[A-Z]{3,5}$/) currency!: string;
  @IsIn(CRYPTO_NETWORKS) cryptoNetwork!: CryptoNetwork;
  /** Smallest unit of `currency` (satoshis, 6-decimal token units). */
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) amount!: number;
  /** BOLT11 invoices run to a few thousand characters. */
  @IsString() @MaxLength(7089) destinationAddress!: string;
}

/** Every amount in the smallest unit of the account's currency; netAmount = amount − totalFee. */
export interface WithdrawalFeeEstimate {
  /**
   * The chain's fee, in the account currency's smallest unit.
   * @asType integer
   * @minimum 0
   */
  networkFee: number;
  /**
   * The asset the chain charges its fee in (ETH, SOL, TRX, POL, XPL, BTC); networkFee is its value in the account currency.
   * @examples ["ETH"]
   */
  networkFeeAsset: string;
  /**
   * The service's fee (0.1%, rounded up).
   * @asType integer
   * @minimum 0
   */
  applicationFee: number;
  /**
   * networkFee + applicationFee.
   * @asType integer
   * @minimum 0
   */
  totalFee: number;
  /**
   * amount − totalFee: what arrives.
   * @asType integer
   * @minimum 1
   */
  netAmount: number;
}
