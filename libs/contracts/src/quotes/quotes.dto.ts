import { Type } from 'class-transformer';
import { IsIn, IsInt, IsNotEmptyObject, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';

export const QUOTE_STATUSES = ['PENDING', 'PENDING_AUTHORIZATION', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
export const LOCKED_CURRENCY_SIDES = ['SENDING', 'RECEIVING'] as const;
export type LockedCurrencySide = (typeof LOCKED_CURRENCY_SIDES)[number];

/** QuoteSource with sourceType ACCOUNT: an internal account of the caller's platform. */
export class QuoteAccountSource {
  @IsIn(['ACCOUNT'], { message: 'sourceType must be ACCOUNT (REALTIME_FUNDING is not supported yet)' }) sourceType!: 'ACCOUNT';
  @IsString() @MaxLength(64) accountId!: string;
}

/** QuoteDestination with destinationType ACCOUNT: an internal or external account of the caller's platform. */
export class QuoteAccountDestination {
  @IsIn(['ACCOUNT'], { message: 'destinationType must be ACCOUNT (UMA_ADDRESS is not supported yet)' }) destinationType!: 'ACCOUNT';
  @IsString() @MaxLength(64) accountId!: string;
}

/** POST /quotes. */
export class CreateQuoteRequest {
  @IsNotEmptyObject() @ValidateNested() @Type(() => QuoteAccountSource) source!: QuoteAccountSource;
  @IsNotEmptyObject() @ValidateNested() @Type(() => QuoteAccountDestination) destination!: QuoteAccountDestination;
  @IsIn(LOCKED_CURRENCY_SIDES) lockedCurrencySide!: LockedCurrencySide;
  @IsInt() @Min(1) @Max(Number.MAX_SAFE_INTEGER) lockedCurrencyAmount!: number;
  @OptionalNotNull() @IsString() @MaxLength(1024) description?: string;
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
  source: { sourceType: 'ACCOUNT'; accountId: string };
  destination: { destinationType: 'ACCOUNT'; accountId: string };
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
