import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { FeeAmountDto } from '../config/platform-config.dto';
import type { FeeAmount } from '../config/platform-config.dto';
import { CRYPTO_NETWORKS, CryptoNetwork } from '../crypto/withdrawal-fee.dto';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';
import { IsName } from '../validators';

/*
 * The service's fees, configured by the deployment's operator (PUT /operator/v1/fees/service, /fees/network) and
 * charged in production. They are not the platform's own fees (PlatformConfig.feeConfigs, set by the platform), which
 * a quote adds on top. The sandbox keeps its built-in constants whatever is configured here.
 */

const CODE = /^[A-Z]{3,5}$/;
const CODE_MESSAGE = 'must be an ISO 4217 code or a crypto ticker';
const PLATFORM_ID = /^Platform:[0-9a-f-]{36}$/;
const REASON_MAX = 500;
const SCHEDULE_ID_MAX = 200;

/** Who set a fee schedule (the operator of the change), as the operator API shows it. */
export interface FeeScheduleOperator {
  id: string;
  name: string;
}

/**
 * PUT /operator/v1/fees/service: the service fee of one scope. The scope is a platform (`platformId`) or the whole
 * deployment (no `platformId`), and one corridor (`sourceCurrency` and `destinationCurrency`, both) or every corridor
 * of that scope (neither). A quote takes the first schedule that exists of: the platform's corridor, the platform's
 * default, the deployment's corridor, the deployment's default; none at all: no service fee.
 */
export class SetServiceFeeScheduleRequest {
  @OptionalNotNull() @IsString() @Matches(PLATFORM_ID, { message: 'platformId must be a platform id (Platform:<uuid>)' }) platformId?: string;
  @OptionalNotNull() @IsString() @Matches(CODE, { message: `sourceCurrency ${CODE_MESSAGE}` }) sourceCurrency?: string;
  @OptionalNotNull() @IsString() @Matches(CODE, { message: `destinationCurrency ${CODE_MESSAGE}` }) destinationCurrency?: string;
  /** Basis points of the sending amount (50 = 0.5%). */
  @IsInt() @Min(0) @Max(10_000) variableFeeBps!: number;
  /**
   * The fixed fee per sending currency, in its smallest unit. A corridor's schedule names its source currency only; a
   * default schedule names each sending currency it charges a fixed fee on (one not named: no fixed fee).
   */
  @IsArray() @ArrayMaxSize(64) @ValidateNested({ each: true }) @Type(() => FeeAmountDto) fixedFees!: FeeAmountDto[];
  /** Why (kept in the schedule's history and the audit log). */
  @OptionalNotNull() @IsName(REASON_MAX) reason?: string;
}

/**
 * PUT /operator/v1/fees/network: what a crypto withdrawal of `currency` on `cryptoNetwork` costs, for one platform
 * (`platformId`) or the whole deployment (without). A platform's entry wins over the deployment's. Production refuses
 * (501) a withdrawal fee estimate on a network without one rather than charge nothing for the chain's fee.
 */
export class SetNetworkFeeScheduleRequest {
  @OptionalNotNull() @IsString() @Matches(PLATFORM_ID, { message: 'platformId must be a platform id (Platform:<uuid>)' }) platformId?: string;
  @IsString() @Matches(CODE, { message: `currency ${CODE_MESSAGE}` }) currency!: string;
  @IsIn(CRYPTO_NETWORKS) cryptoNetwork!: CryptoNetwork;
  /** The chain's fee, in the smallest unit of `currency` (what the withdrawal is charged for it). */
  @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) networkFee!: number;
  /** The asset the chain charges its fee in (ETH on BASE); the chain's own asset when left out. */
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{2,10}$/, { message: 'networkFeeAsset must be an asset ticker (ETH, SOL, TRX)' }) networkFeeAsset?: string;
  /** The service's fee on the withdrawal, in basis points of the amount (rounded up to a whole smallest unit). */
  @IsInt() @Min(0) @Max(10_000) applicationFeeBps!: number;
  @OptionalNotNull() @IsName(REASON_MAX) reason?: string;
}

/** DELETE /operator/v1/fees/service/{scheduleId} and /fees/network/{scheduleId}: why (optional). */
export class RemoveFeeScheduleQuery {
  @OptionalNotNull() @IsName(REASON_MAX) reason?: string;
}

/** GET /operator/v1/fees/service: the schedules in force, by id; every filter narrows. */
export class ListServiceFeeSchedulesQuery extends PageQuery {
  /** A platform's schedules; `deployment` for the deployment-wide ones. */
  @OptionalNotNull() @IsString() @Matches(/^(deployment|Platform:[0-9a-f-]{36})$/, { message: 'platformId must be a platform id or deployment' }) platformId?: string;
  @OptionalNotNull() @IsString() @Matches(CODE, { message: `sourceCurrency ${CODE_MESSAGE}` }) sourceCurrency?: string;
  @OptionalNotNull() @IsString() @Matches(CODE, { message: `destinationCurrency ${CODE_MESSAGE}` }) destinationCurrency?: string;
}

/** GET /operator/v1/fees/network: the network fees in force, by id; every filter narrows. */
export class ListNetworkFeeSchedulesQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(/^(deployment|Platform:[0-9a-f-]{36})$/, { message: 'platformId must be a platform id or deployment' }) platformId?: string;
  @OptionalNotNull() @IsString() @Matches(CODE, { message: `currency ${CODE_MESSAGE}` }) currency?: string;
  @OptionalNotNull() @IsIn(CRYPTO_NETWORKS) cryptoNetwork?: CryptoNetwork;
}

/** GET /operator/v1/fees/service/history and /fees/network/history: every change, newest first. */
export class ListFeeScheduleHistoryQuery extends PageQuery {
  /** One schedule's changes. */
  @OptionalNotNull() @IsString() @MaxLength(SCHEDULE_ID_MAX) scheduleId?: string;
  /** The changes of a platform's schedules; `deployment` for the deployment-wide ones. */
  @OptionalNotNull() @IsString() @Matches(/^(deployment|Platform:[0-9a-f-]{36})$/, { message: 'platformId must be a platform id or deployment' }) platformId?: string;
}

/** A service fee schedule in force (GET/PUT /operator/v1/fees/service). */
export interface ServiceFeeSchedule {
  /**
   * Names the scope: `ServiceFeeSchedule:<platformId|deployment>:<SOURCE-DESTINATION|default>`. A quote records the
   * id and version that priced it.
   * @examples ["ServiceFeeSchedule:deployment:USD-EUR"]
   */
  id: string;
  /** The platform it applies to; null for the whole deployment. */
  platformId: string | null;
  /** The corridor's source currency; null for every corridor of the scope (a default). */
  sourceCurrency: string | null;
  destinationCurrency: string | null;
  /**
   * @asType integer
   * @minimum 0
   * @maximum 10000
   */
  variableFeeBps: number;
  /** The fixed fee per sending currency, in its smallest unit (a sending currency not listed: none). */
  fixedFees: FeeAmount[];
  /**
   * Counts the schedule's changes, removals included: 1 when first set.
   * @asType integer
   * @minimum 1
   */
  version: number;
  updatedAt: string;
  updatedBy: FeeScheduleOperator;
}

/** A crypto withdrawal network fee in force (GET/PUT /operator/v1/fees/network). */
export interface NetworkFeeSchedule {
  /**
   * `NetworkFeeSchedule:<platformId|deployment>:<CURRENCY>:<NETWORK>`.
   * @examples ["NetworkFeeSchedule:deployment:USDC:BASE"]
   */
  id: string;
  platformId: string | null;
  currency: string;
  cryptoNetwork: CryptoNetwork;
  /**
   * The chain's fee in the smallest unit of `currency`.
   * @asType integer
   * @minimum 0
   */
  networkFee: number;
  networkFeeAsset: string;
  /**
   * @asType integer
   * @minimum 0
   * @maximum 10000
   */
  applicationFeeBps: number;
  /**
   * @asType integer
   * @minimum 1
   */
  version: number;
  updatedAt: string;
  updatedBy: FeeScheduleOperator;
}

/** One change of a service fee schedule: its values as set (SET) or as they were when removed (REMOVED). */
export interface ServiceFeeScheduleVersion extends ServiceFeeSchedule {
  change: 'SET' | 'REMOVED';
  reason: string | null;
}

/** One change of a network fee: its values as set (SET) or as they were when removed (REMOVED). */
export interface NetworkFeeScheduleVersion extends NetworkFeeSchedule {
  change: 'SET' | 'REMOVED';
  reason: string | null;
}
