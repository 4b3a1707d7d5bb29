import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmptyObject, IsObject, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { FeeAmountDto } from '../config/platform-config.dto';
import { OptionalNotNull } from '../optional-not-null';
import { QueryArray } from '../query-array';
import { PURPOSES_OF_PAYMENT } from '../transactions/transactions.dto';

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

/** Most keys of a free-form map such as senderCustomerInfo, and its largest size as JSON (checked by the quoting service). */
export const RECORD_MAX_KEYS = 100;
export const RECORD_MAX_JSON_LENGTH = 16_384;

/** The published PlatformFeeOverride: this quote's platform fee instead of the configured one (USD sources only). */
export class PlatformFeeOverrideDto {
  /** In the quote's source currency. */
  @ValidateNested() @Type(() => FeeAmountDto) platformFixedFee!: FeeAmountDto;
  @IsInt() @Min(0) @Max(10_000) platformVariableFeeBps!: number;
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
  /** Travels with the payout (ACH addenda, RTP/FedNow remittance information, wire OBI), as on POST /transfer-out. */
  @OptionalNotNull() @IsString() @MaxLength(80) remittanceInformation?: string;
  /** Required by some corridors (e.g. India); the published PurposeOfPayment enum. */
  @OptionalNotNull() @IsIn(PURPOSES_OF_PAYMENT) purposeOfPayment?: PurposeOfPayment;
  /** Replaces the platform's configured fee for this quote (USD source only, as published). */
  @OptionalNotNull() @IsObject() @ValidateNested() @Type(() => PlatformFeeOverrideDto) platformFeeOverride?: PlatformFeeOverrideDto;
  /**
   * What the destination asked to know about the sender (`requiredPayerDataFields` of a receiver lookup), keyed by
   * field name (FULL_NAME, NATIONALITY, POSTAL_ADDRESS…). Free-form as published; at most RECORD_MAX_KEYS keys and
   * RECORD_MAX_JSON_LENGTH characters as JSON.
   */
  @OptionalNotNull() @IsObject() senderCustomerInfo?: Record<string, unknown>;
}

export type PurposeOfPayment = (typeof PURPOSES_OF_PAYMENT)[number];

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

/** The published default of GET /exchange-rates' `sendingAmount`. */
export const EXCHANGE_RATE_DEFAULT_SENDING_AMOUNT = 10_000;

/** GET /exchange-rates (every published parameter). */
export class ExchangeRatesQuery {
  /** Omitted (as the published API allows): from each currency the platform has configured. */
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) sourceCurrency?: string;
  /** One or more (repeated or comma-joined); omitted: every other supported currency. */
  @OptionalNotNull() @QueryArray() @Matches(/^[A-Z]{3,5}$/, { each: true, message: 'each destinationCurrency must be a currency code (3 to 5 capital letters)' }) destinationCurrency?: string[];
  /** Source currency smallest unit; 10000 by default. Digits only: `1e3`, `1.0` and `-1` are refused. */
  @OptionalNotNull() @Transform(({ value }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value)) @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) sendingAmount?: number;
}

export interface QuoteCurrency {
  /** @examples ["USD"] */
  code: string;
  name: string;
  symbol: string;
  /**
   * @asType integer
   * @minimum 0
   */
  decimals: number;
}

/** Quoting's name of OutgoingRateDetails (the published one). */
export type QuoteRateDetails = OutgoingRateDetails;

export interface OutgoingRateDetails {
  /** Receiving smallest units per mSAT. */
  counterpartyMultiplier: number;
  /**
   * Receiving currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  counterpartyFixedFee: number;
  /** mSATs per sending smallest unit, after variable fees. */
  gridApiMultiplier: number;
  /**
   * Sending currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  gridApiFixedFee: number;
  /**
   * Percent of the sending amount.
   * @minimum 0
   */
  gridApiVariableFeeRate: number;
  /**
   * Sending currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  gridApiVariableFeeAmount: number;
}

export interface Quote {
  /** @pattern ^Quote: */
  id: string;
  status: QuoteStatus;
  /** @format date-time */
  createdAt: string;
  /**
   * The locked rate and fees hold until then; an unexecuted quote turns EXPIRED.
   * @format date-time
   */
  expiresAt: string;
  source: QuoteSource;
  destination: QuoteDestination;
  sendingCurrency: QuoteCurrency;
  receivingCurrency: QuoteCurrency;
  /**
   * Sending currency smallest unit, fees included.
   * @asType integer
   * @minimum 1
   */
  totalSendingAmount: number;
  /**
   * Receiving currency smallest unit.
   * @asType integer
   * @minimum 1
   */
  totalReceivingAmount: number;
  /**
   * Sending currency units per receiving currency unit (major units).
   * @exclusiveMinimum 0
   */
  exchangeRate: number;
  /**
   * Sending currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  feesIncluded: number;
  /**
   * The part of feesIncluded the platform collects.
   * @asType integer
   * @minimum 0
   */
  platformFeesIncluded: number;
  /**
   * Reserved at creation: the transaction an execution creates.
   * @pattern ^Transaction:
   */
  transactionId: string;
  rateDetails: OutgoingRateDetails;
  description?: string;
  /**
   * REALTIME_FUNDING quotes: where to pay in (include the reference); withheld while PENDING_AUTHORIZATION.
   */
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
  /** @pattern ^ScaChallenge: */
  id: string;
  /** @format date-time */
  expiresAt: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  /** CURRENCY_CONVERSION, PAYOUT or TRANSFER; informational. */
  purpose: string | null;
  /** WebAuthn PublicKeyCredentialRequestOptionsJSON (PASSKEY only). */
  passkeyAssertionOptions?: Record<string, unknown> | null;
  passkeyAllowedOrigins?: string[] | null;
}

/** The published ExchangeRateFees: sending currency smallest unit, for the item's sendingAmount. */
export interface ExchangeRateFees {
  /**
   * Fixed fees (service + platform).
   * @asType integer
   * @minimum 0
   */
  fixed: number;
  /**
   * Everything a quote of sendingAmount would include: fixed plus the variable fees on that amount.
   * @asType integer
   * @minimum 0
   */
  total: number;
}

/**
 * One quotable pair of GET /exchange-rates: the published ExchangeRate (sendingAmount priced exactly as a SENDING
 * quote of that amount would be), plus this service's mid rate and fee breakdown.
 */
export interface ExchangeRate {
  sourceCurrency: QuoteCurrency;
  destinationCurrency: QuoteCurrency;
  /**
   * The request's sendingAmount (10000 by default), source currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  sendingAmount: number;
  /**
   * The platform's minAmount of the source currency; 0 when it does not configure the currency.
   * @asType integer
   * @minimum 0
   */
  minSendingAmount: number;
  /**
   * The platform's maxAmount of the source currency; 0 when it does not configure the currency.
   * @asType integer
   * @minimum 0
   */
  maxSendingAmount: number;
  /**
   * The rail a payout in the destination currency normally takes (a PaymentRail; for crypto, its network: LIGHTNING, SOLANA, TRON).
   */
  destinationPaymentRail: string;
  /**
   * totalReceivingAmount of a SENDING quote of sendingAmount, destination currency smallest unit; 0 when sendingAmount does not cover the fees.
   * @asType integer
   * @minimum 0
   */
  receivingAmount: number;
  /**
   * Sending major units per receiving major unit, as the quote's; the inverse mid rate when nothing is received.
   * @exclusiveMinimum 0
   */
  exchangeRate: number;
  fees: ExchangeRateFees;
  /**
   * When this rate was last refreshed (start of its rate window).
   * @format date-time
   */
  updatedAt: string;
  /** Destination major units per one source major unit (mid rate, before fees). */
  rate: number;
  /** Source major units per one destination major unit. */
  inverseRate: number;
  /** Variable fees on the sending amount, percent (grid + platform). */
  variableFeeRate: number;
  /**
   * Fixed fees, source currency smallest unit (grid + platform).
   * @asType integer
   * @minimum 0
   */
  fixedFee: number;
  /** The platform's share of variableFeeRate. */
  platformVariableFeeRate: number;
  /**
   * The platform's share of fixedFee.
   * @asType integer
   * @minimum 0
   */
  platformFixedFee: number;
  /**
   * Destination currency smallest unit.
   * @asType integer
   * @minimum 0
   */
  counterpartyFixedFee: number;
  /**
   * End of the current rate window: the rate is cached until then.
   * @format date-time
   */
  expiresAt: string;
}

/** GET /exchange-rates: every quotable pair, not paginated. */
export interface ExchangeRateList {
  data: ExchangeRate[];
}

export const isQuoteId = (value: string): boolean => /^Quote:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
