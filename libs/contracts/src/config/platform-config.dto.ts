import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
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

/**
 * What an unset field of `embeddedWalletConfig` means: the published defaults (OTP of 6 digits, valid 300 s, sent by
 * "Notifications"). The wallet-auth service reads the effective values as `{ ...EMBEDDED_WALLET_CONFIG_DEFAULTS, ...config }`.
 */
export const EMBEDDED_WALLET_CONFIG_DEFAULTS: Readonly<Required<Pick<EmbeddedWalletConfig, 'otpLength' | 'alphanumeric' | 'expirationSeconds' | 'sendFromEmailSenderName'>>> = Object.freeze({
  otpLength: 6,
  alphanumeric: false,
  expirationSeconds: 300,
  sendFromEmailSenderName: 'Notifications',
});

/**
 * `embeddedWalletConfig` of PATCH /config: a partial merge, as published. Only the fields sent change; leaving a field
 * out keeps its value, and null is not a value (the published schema has no nullable field here).
 */
export class EmbeddedWalletConfigDto {
  @OptionalNotNull() @IsString() @MaxLength(255) appName?: string;

  @OptionalNotNull()
  @IsInt({ message: 'otpLength must be an integer' })
  @Min(4, { message: 'otpLength must be at least 4' })
  @Max(12, { message: 'otpLength must be at most 12' })
  otpLength?: number;

  @OptionalNotNull() @IsBoolean() alphanumeric?: boolean;

  @OptionalNotNull()
  @IsInt({ message: 'expirationSeconds must be an integer' })
  @Min(1, { message: 'expirationSeconds must be at least 1' })
  @Max(86_400, { message: 'expirationSeconds must be at most 86400 (one day)' })
  expirationSeconds?: number;

  @OptionalNotNull() @IsString() @MaxLength(255) @IsEmail({}, { message: 'sendFromEmailAddress must be an email address' }) sendFromEmailAddress?: string;

  @OptionalNotNull() @IsString() @MaxLength(255) sendFromEmailSenderName?: string;

  @OptionalNotNull() @IsString() @MaxLength(255) @IsEmail({}, { message: 'replyToEmailAddress must be an email address' }) replyToEmailAddress?: string;

  /** A PNG the OTP email shows, resized to 340×124. */
  @OptionalNotNull()
  @IsString()
  @MaxLength(512)
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'logoUrl must be an http(s) URL' })
  logoUrl?: string;
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

  /** Merged into the current embedded-wallet configuration (created when there is none): only the fields sent change. */
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => EmbeddedWalletConfigDto)
  embeddedWalletConfig?: EmbeddedWalletConfigDto;
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

/** Per-platform embedded-wallet settings: branding and OTP of the email sent for EMAIL_OTP credentials (EmbeddedWalletConfigDto, as returned). */
export interface EmbeddedWalletConfig {
  /**
   * App name displayed in the default OTP email template.
   * @maxLength 255
   */
  appName?: string;
  /**
   * Number of digits (characters when alphanumeric) of the OTP code; 6 when not set.
   * @asType integer
   * @minimum 4
   * @maximum 12
   */
  otpLength?: number;
  /** Whether the OTP includes letters as well as digits; numeric only when not set. */
  alphanumeric?: boolean;
  /**
   * OTP validity in seconds; 300 when not set.
   * @asType integer
   * @minimum 1
   * @maximum 86400
   */
  expirationSeconds?: number;
  /**
   * Sender address of OTP emails.
   * @format email
   * @maxLength 255
   */
  sendFromEmailAddress?: string;
  /**
   * Sender display name of OTP emails; "Notifications" when not set.
   * @maxLength 255
   */
  sendFromEmailSenderName?: string;
  /**
   * Reply-to address of OTP emails.
   * @format email
   * @maxLength 255
   */
  replyToEmailAddress?: string;
  /**
   * URL of a PNG logo for the OTP email, resized to 340×124 px.
   * @format uri
   * @maxLength 512
   */
  logoUrl?: string;
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
  /**
   * Embedded-wallet branding and OTP settings: present only once set (PATCH merges the fields sent). Unset fields take
   * the published defaults (EMBEDDED_WALLET_CONFIG_DEFAULTS).
   */
  embeddedWalletConfig?: EmbeddedWalletConfig;
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
