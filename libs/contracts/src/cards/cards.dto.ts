import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNotEmptyObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import { CARD_FORMS, CARD_FUNDING_SOURCES_MAX, CARD_STATES, CardForm, CardState } from './cards';

const ID_MAX = 64;
/** Printable text a platform chooses as its own card id. */
const PLATFORM_CARD_ID = /^[\x21-\x7e]{1,128}$/;
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** POST /cards (interop §6.9). `threeDSecurePassword` is forwarded to an issuer that takes one and never kept. */
export class CreateCardRequest {
  @IsString() @MaxLength(ID_MAX) cardholderId!: string;
  @OptionalNotNull() @IsString() @Matches(PLATFORM_CARD_ID, { message: 'platformCardId must be 1-128 printable characters without spaces' }) platformCardId?: string;
  @OptionalNotNull() @IsString() @MinLength(4) @MaxLength(64) threeDSecurePassword?: string;
  @IsIn(CARD_FORMS) form!: CardForm;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(CARD_FUNDING_SOURCES_MAX) @IsString({ each: true }) @MaxLength(ID_MAX, { each: true }) fundingSources!: string[];
  @OptionalNotNull() @IsInt() @Min(1) @Max(MAX_AMOUNT) maxSpendPerTransaction?: number;
}

/** PATCH /cards/{id}: at least one field; CLOSED goes alone; `maxSpendPerTransaction: null` clears the limit. */
export class UpdateCardRequest {
  @OptionalNotNull() @IsIn(['ACTIVE', 'FROZEN', 'CLOSED']) state?: Exclude<CardState, 'PROCESSING'>;
  @OptionalNotNull() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(CARD_FUNDING_SOURCES_MAX) @IsString({ each: true }) @MaxLength(ID_MAX, { each: true }) fundingSources?: string[];
  @ValidateIf((o: UpdateCardRequest) => o.maxSpendPerTransaction !== undefined && o.maxSpendPerTransaction !== null) @IsInt() @Min(1) @Max(MAX_AMOUNT) maxSpendPerTransaction?: number | null;
}

/** GET /cards: every published filter. */
export class ListCardsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(ID_MAX) cardholderId?: string;
  /** Cards whose fundingSources hold this internal account. */
  @OptionalNotNull() @IsString() @MaxLength(ID_MAX) accountId?: string;
  @OptionalNotNull() @IsString() @MaxLength(128) platformCardId?: string;
  @OptionalNotNull() @IsIn(CARD_STATES) state?: CardState;
  @OptionalNotNull() @IsIn(['asc', 'desc']) sortOrder?: 'asc' | 'desc';
}

export class CardMerchantDto {
  @IsString() @MinLength(1) @MaxLength(64) descriptor!: string;
  @OptionalNotNull() @IsString() @Matches(/^\d{4}$/, { message: 'mcc must be four digits' }) mcc?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{2}$/, { message: 'country must be an ISO 3166-1 alpha-2 code' }) country?: string;
}

export class CardCurrencyDto {
  @IsString() @Matches(/^[A-Z]{3,5}$/) code!: string;
}

/** The authorization family of simulators: authorization, credit_authorization(_advice), financial_(credit_)authorization. */
export class SandboxCardAuthorizationRequest {
  @IsInt() @Min(1) @Max(MAX_AMOUNT) amount!: number;
  @IsNotEmptyObject() @ValidateNested() @Type(() => CardCurrencyDto) currency!: CardCurrencyDto;
  @IsNotEmptyObject() @ValidateNested() @Type(() => CardMerchantDto) merchant!: CardMerchantDto;
}

/** simulate/balance_inquiry: a zero-amount authorization. */
export class SandboxCardBalanceInquiryRequest {
  @IsNotEmptyObject() @ValidateNested() @Type(() => CardMerchantDto) merchant!: CardMerchantDto;
}

export class SandboxCardTransactionRefRequest {
  @IsString() @MaxLength(ID_MAX) cardTransactionId!: string;
}

/** simulate/authorization_advice: `amount` is the new total authorized. */
export class SandboxCardAuthorizationAdviceRequest extends SandboxCardTransactionRefRequest {
  @IsInt() @Min(1) @Max(MAX_AMOUNT) amount!: number;
}

/** simulate/clearing: 0 is the authorization's expiry; above the authorized amount a post-hoc pull. */
export class SandboxCardClearingRequest extends SandboxCardTransactionRefRequest {
  @IsInt() @Min(0) @Max(MAX_AMOUNT) amount!: number;
}

/** simulate/return: at most the net settled amount. */
export class SandboxCardReturnRequest extends SandboxCardTransactionRefRequest {
  @IsInt() @Min(1) @Max(MAX_AMOUNT) amount!: number;
}
