import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmptyObject, IsObject, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

export const QUOTE_STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const LOCKED_CURRENCY_SIDES = ['SENDING', 'RECEIVING'] as const;
export type LockedCurrencySide = (typeof LOCKED_CURRENCY_SIDES)[number];

export const QUOTE_SOURCE_TYPES = ['ACCOUNT', 'REALTIME_FUNDING'] as const;
export const QUOTE_DESTINATION_TYPES = ['ACCOUNT', 'UMA_ADDRESS'] as const;
export const SCA_FACTORS = ['SMS_OTP', 'TOTP', 'PASSKEY'] as const;
export type ScaFactor = (typeof SCA_FACTORS)[number];

/**
 * QuoteSource: ACCOUNT (`accountId`: an internal account of the caller's platform) or REALTIME_FUNDING (`customerId`
 * and `currency`: the customer pays in just in time through the quote's paymentInstructions). Fields of the other
 * variant are refused (400).
 */
export class QuoteSourceRequest {
  @IsIn(QUOTE_SOURCE_TYPES) sourceType!: (typeof QUOTE_SOURCE_TYPES)[number];
  @ValidateIf((o: QuoteSourceRequest) => o.sourceType === 'ACCOUNT' || o.accountId !== undefined) @IsString() @MaxLength(64) accountId?: string;
  @ValidateIf((o: QuoteSourceRequest) => o.sourceType === 'REALTIME_FUNDING' || o.customerId !== undefined) @IsString() @MaxLength(64) customerId?: string;
  @ValidateIf((o: QuoteSourceRequest) => o.sourceType === 'REALTIME_FUNDING' || o.currency !== undefined) @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
}

/**
 * QuoteDestination: ACCOUNT (`accountId`: an internal or external account, optional `paymentRail`) or UMA_ADDRESS
 * (`umaAddress`, optional `currency`, and the request's `lookupId` from GET /receiver/uma/{address}).
 */
export class QuoteDestinationRequest {
  @IsIn(QUOTE_DESTINATION_TYPES) destinationType!: (typeof QUOTE_DESTINATION_TYPES)[number];
  @ValidateIf((o: QuoteDestinationRequest) => o.destinationType === 'ACCOUNT' || o.accountId !== undefined) @IsString() @MaxLength(64) accountId?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z_]{2,20}$/) paymentRail?: string;
  @ValidateIf((o: QuoteDestinationRequest) => o.destinationType === 'UMA_ADDRESS' || o.umaAddress !== undefined) @IsString() @MaxLength(256) umaAddress?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
}

/** POST /quotes. */
export class CreateQuoteRequest {
  @IsNotEmptyObject() @ValidateNested() @Type(() => QuoteSourceRequest) source!: QuoteSourceRequest;
  @IsNotEmptyObject() @ValidateNested() @Type(() => QuoteDestinationRequest) destination!: QuoteDestinationRequest;
  @IsIn(LOCKED_CURRENCY_SIDES) lockedCurrencySide!: LockedCurrencySide;
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) lockedCurrencyAmount!: number;
  @OptionalNotNull() @IsBoolean() immediatelyExecute?: boolean;
  @OptionalNotNull() @IsString() @MaxLength(1024) description?: string;
  /** Required for UMA_ADDRESS destinations: the receiver lookup the quote is priced against. */
  @OptionalNotNull() @IsString() @MaxLength(64) lookupId?: string;
  /** The factor of the first SCA challenge (customers in SCA regions); SMS_OTP by default. */
  @OptionalNotNull() @IsIn(SCA_FACTORS) scaFactor?: ScaFactor;
}

/** POST /quotes/{quoteId}/execute (body optional). */
export class ExecuteQuoteRequest {
  @OptionalNotNull() @IsIn(SCA_FACTORS) scaFactor?: ScaFactor;
}

/** POST /quotes/{quoteId}/authorize: proof for the current SCA challenge (a code, or a passkey assertion and its origin). */
export class ScaAuthorization {
  @OptionalNotNull() @IsString() @MaxLength(16) code?: string;
  @OptionalNotNull() @IsObject() passkeyAssertion?: Record<string, unknown>;
  @OptionalNotNull() @IsString() @MaxLength(512) origin?: string;
  @OptionalNotNull() @IsString() @MaxLength(45) endUserIpAddress?: string;
}

/** GET /exchange-rates. */
export class ExchangeRatesQuery {
  @IsString() @Matches(/^[A-Z]{3,5}$/) sourceCurrency!: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) destinationCurrency?: string;
}

export interface QuoteCurrency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface QuoteRateDetails {
  counterpartyMultiplier: number;
  counterpartyFixedFee: number;
  gridApiMultiplier: number;
  gridApiFixedFee: number;
  gridApiVariableFeeRate: number;
  gridApiVariableFeeAmount: number;
}

export interface Quote {
  id: string;
  status: QuoteStatus;
  createdAt: string;
  expiresAt: string;
  source: QuoteSource;
  destination: QuoteDestination;
  sendingCurrency: QuoteCurrency;
  receivingCurrency: QuoteCurrency;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  /** Sending currency units per receiving currency unit (major units). */
  exchangeRate: number;
  feesIncluded: number;
  platformFeesIncluded: number;
  transactionId: string;
  rateDetails: QuoteRateDetails;
  description?: string;
  /** Realtime-funding quotes: where and how to pay in; withheld while PENDING_AUTHORIZATION. */
  paymentInstructions?: PaymentInstructions[];
  /** Present only while PENDING_AUTHORIZATION. */
  scaChallenge?: ScaChallenge;
}

export type QuoteSource = { sourceType: 'ACCOUNT'; accountId: string } | { sourceType: 'REALTIME_FUNDING'; customerId: string; currency: string };
export type QuoteDestination = { destinationType: 'ACCOUNT'; accountId: string; paymentRail?: string } | { destinationType: 'UMA_ADDRESS'; umaAddress: string; currency: string };

/** How to pay money in: bank details with a reference, or a wallet address (the spec's PaymentInstructions). */
export interface PaymentInstructions {
  accountOrWalletInfo: Record<string, unknown> & { accountType: string };
  instructionsNotes?: string;
  isPlatformAccount?: boolean;
}

/** One round of Strong Customer Authentication on a quote. */
export interface ScaChallenge {
  id: string;
  expiresAt: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  /** CURRENCY_CONVERSION, PAYOUT or TRANSFER; informational. */
  purpose: string | null;
  passkeyAssertionOptions?: Record<string, unknown> | null;
  passkeyAllowedOrigins?: string[] | null;
}

/** One quotable pair of GET /exchange-rates. */
export interface ExchangeRate {
  sourceCurrency: QuoteCurrency;
  destinationCurrency: QuoteCurrency;
  /** Destination major units per one source major unit (mid rate, before fees). */
  rate: number;
  /** Source major units per one destination major unit. */
  inverseRate: number;
  /** Variable fees on the sending amount, percent (grid + platform). */
  variableFeeRate: number;
  /** Fixed fees, source currency smallest unit (grid + platform). */
  fixedFee: number;
  /** Of the above, the platform's own fees. */
  platformVariableFeeRate: number;
  platformFixedFee: number;
  counterpartyFixedFee: number;
  /** End of the current rate window: the rate is cached until then. */
  expiresAt: string;
}

export const isQuoteId = (value: string): boolean => /^Quote:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
