import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  IsFQDN,
  Max,
} from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

export const CUSTOMER_INFO_FIELD_NAMES = [
  'FULL_NAME', 'BIRTH_DATE', 'NATIONALITY', 'PHONE_NUMBER', 'EMAIL', 'POSTAL_ADDRESS', 'TAX_ID', 'REGISTRATION_NUMBER',
  'USER_TYPE', 'COUNTRY_OF_RESIDENCE', 'ACCOUNT_IDENTIFIER', 'FI_LEGAL_ENTITY_NAME', 'FI_ADDRESS', 'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY', 'IDENTIFIER', 'BUSINESS_TYPE', 'COMPANY_LEGAL_NAME', 'ID_TYPE', 'ID_NUMBER',
] as const;
export const TRANSACTION_DIRECTIONS = ['INCOMING', 'OUTGOING'] as const;

export class RequiredFieldDto {
  @IsIn(CUSTOMER_INFO_FIELD_NAMES)
  name!: (typeof CUSTOMER_INFO_FIELD_NAMES)[number];

  @IsBoolean()
  mandatory!: boolean;
}

/** PlatformCurrencyConfig: limits and requirements for one currency the platform supports. */
export class PlatformCurrencyConfigDto {
  @IsString()
  @Matches(/^[A-Z]{3,5}$/, { message: 'currencyCode must be an ISO 4217 code or a crypto ticker' })
  currencyCode!: string;

  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  minAmount!: number;

  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  maxAmount!: number;

  @IsArray()
  @ArrayMaxSize(CUSTOMER_INFO_FIELD_NAMES.length)
  @ValidateNested({ each: true })
  @Type(() => RequiredFieldDto)
  requiredCounterpartyFields!: RequiredFieldDto[];

  @IsArray()
  @ArrayUnique()
  @IsIn(TRANSACTION_DIRECTIONS, { each: true })
  enabledTransactionTypes!: (typeof TRANSACTION_DIRECTIONS)[number][];
}

export const FEE_TYPES = ['CROSS_CURRENCY_TRANSACTION'] as const;

/** A fixed fee: an amount in the smallest unit of `currency` (which must be the config's sourceCurrency). */
export class FeeAmountDto {
  @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) amount!: number;
  @IsString() @Matches(/^[A-Z]{3,5}$/) currency!: string;
}

/** The platform's own fee on cross-currency transactions from one source currency, added to the service's. */
export class FeeConfigDto {
  @IsIn(FEE_TYPES) feeType!: (typeof FEE_TYPES)[number];
  @IsString() @Matches(/^[A-Z]{3,5}$/) sourceCurrency!: string;
  @IsInt() @Min(0) @Max(10_000) variableFeeBps!: number;
  @ValidateNested() @Type(() => FeeAmountDto) fixedFee!: FeeAmountDto;
}

/** The platform's own fee on cross-currency transactions from one source currency (FeeConfigDto, as returned). */
export interface FeeConfig {
  feeType: (typeof FEE_TYPES)[number];
  /** @examples ["USD"] */
  sourceCurrency: string;
  /**
   * Variable fee in basis points of the sending amount.
   * @asType integer
   * @minimum 0
   * @maximum 10000
   */
  variableFeeBps: number;
  /** Fixed fee, in the smallest unit of `currency` (the sourceCurrency). */
  fixedFee: FeeAmount;
}

export interface FeeAmount {
  /**
   * @asType integer
   * @minimum 0
   */
  amount: number;
  currency: string;
}

/** PATCH /config body. Only the fields sent change; `webhookEndpoint: null` removes the endpoint. */
export class UpdatePlatformConfigRequest {
  @OptionalNotNull()
  @IsString()
  @MaxLength(253)
  @IsFQDN({ require_tld: true }, { message: 'umaDomain must be a domain name' })
  umaDomain?: string;

  @ValidateIf((_o, v) => v !== null)
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(/^https?:\/\/[^\s]+$/i, { message: 'webhookEndpoint must be an http(s) URL' })
  webhookEndpoint?: string | null;

  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(64)
  @ValidateNested({ each: true })
  @Type(() => PlatformCurrencyConfigDto)
  supportedCurrencies?: PlatformCurrencyConfigDto[];

  /** Upserted by (feeType, sourceCurrency); a config with zero fees removes it. Only USD today (other currencies: 501). */
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(16)
  @ValidateNested({ each: true })
  @Type(() => FeeConfigDto)
  feeConfigs?: FeeConfigDto[];
}

export interface PlatformCurrencyConfig {
  /** @examples ["USD"] */
  currencyCode: string;
  /**
   * In the smallest unit of the currency.
   * @asType integer
   * @minimum 0
   */
  minAmount: number;
  /**
   * In the smallest unit of the currency.
   * @asType integer
   * @minimum 1
   */
  maxAmount: number;
  requiredCounterpartyFields: { name: string; mandatory: boolean }[];
  enabledTransactionTypes: ('INCOMING' | 'OUTGOING')[];
}

/** PlatformConfig as the API returns it. */
export interface PlatformConfig {
  /**
   * @pattern ^PlatformConfig:
   * @examples ["PlatformConfig:019a0a4e-7c1e-7bb4-9d43-2f5d3b0f4b11"]
   */
  id: string;
  /**
   * The domain customer UMA addresses are generated at: the one set here, else in sandbox mode the sandbox domain (`sandbox.uma.money`); absent in production until set.
   * @format hostname
   */
  umaDomain?: string;
  /** @format uri */
  webhookEndpoint?: string;
  supportedCurrencies: PlatformCurrencyConfig[];
  /**
   * The platform's own fees on cross-currency transactions, added to quotes (`platformFeesIncluded`). PATCH upserts by (feeType, sourceCurrency); zero fees remove one; USD only (other currencies: 501).
   */
  feeConfigs: FeeConfig[];
  /** DISABLED after the endpoint answered 410 Gone; set the endpoint again to re-enable it. */
  webhookEndpointStatus?: 'ACTIVE' | 'DISABLED';
  /**
   * PEM (SPKI) P-256 public key that verifies the `X-Service-Signature` header of webhooks (docs/webhooks.md).
   */
  webhookPublicKey?: string;
  /**
   * Standard Webhooks secret (`whsec_…`) for the `webhook-signature` header; only shown to MANAGE credentials.
   */
  webhookSecret?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}
