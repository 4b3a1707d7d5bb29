import { Type } from 'class-transformer';
import { IsIn, IsNotEmptyObject, IsString, Matches, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import {
  STABLECOIN_BURN_SOURCE_TYPES,
  STABLECOIN_GRID_OPERATIONS_STATUSES,
  STABLECOIN_ISSUANCE_STATUSES,
  STABLECOIN_MINT_FUNDING_TYPES,
  STABLECOIN_NETWORKS,
  STABLECOIN_OPERATION_TYPES,
  STABLECOIN_PAYOUT_RAILS,
  STABLECOIN_PROVIDER_ACCOUNT_STATUSES,
  STABLECOIN_PROVIDERS,
  StablecoinBurnSourceType,
  StablecoinGridOperationsStatus,
  StablecoinIssuanceStatus,
  StablecoinMintFundingType,
  StablecoinNetwork,
  StablecoinOperationType,
  StablecoinPayoutRail,
  StablecoinProvider,
  StablecoinProviderAccountStatus,
} from './stablecoins';

const ID_MAX = 64;
/** Provider identifiers (client ids, account ids, value types): printable, no spaces. */
const PROVIDER_TEXT = /^[\x21-\x7e]+$/;
/** Token amounts are strings of digits (at most 38: beyond any token supply, and bounded before BigInt parses it). */
const DIGITS = /^[0-9]{1,38}$/;

/** POST /stablecoin-provider-accounts: the secret is verified with the provider, kept sealed, never returned. */
export class LinkStablecoinProviderAccountRequest {
  @IsIn(STABLECOIN_PROVIDERS) provider!: StablecoinProvider;
  @IsString() @MinLength(1) @MaxLength(256) @Matches(PROVIDER_TEXT, { message: 'apiClientId must be printable characters without spaces' }) apiClientId!: string;
  @IsString() @MinLength(1) @MaxLength(1024) @Matches(PROVIDER_TEXT, { message: 'apiClientSecret must be printable characters without spaces' }) apiClientSecret!: string;
  @OptionalNotNull() @IsString() @MaxLength(128) @Matches(PROVIDER_TEXT, { message: 'providerAccountId must be printable characters without spaces' }) providerAccountId?: string;
}

export class ListStablecoinProviderAccountsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(STABLECOIN_PROVIDERS) provider?: StablecoinProvider;
  @OptionalNotNull() @IsIn(STABLECOIN_PROVIDER_ACCOUNT_STATUSES) status?: StablecoinProviderAccountStatus;
}

/** POST /stablecoins: links an existing provider-created token; `stablecoinProviderAccountId` may be left out when one ACTIVE link exists. */
export class RegisterStablecoinRequest {
  @IsString() @MinLength(1) @MaxLength(128) @Matches(PROVIDER_TEXT, { message: 'providerTokenIdentifier must be printable characters without spaces' }) providerTokenIdentifier!: string;
  @IsString() @MinLength(1) @MaxLength(128) networkTokenIdentifier!: string;
  @IsIn(STABLECOIN_NETWORKS) network!: StablecoinNetwork;
  @OptionalNotNull() @IsString() @MaxLength(ID_MAX) stablecoinProviderAccountId?: string;
}

export class ListStablecoinsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(STABLECOIN_ISSUANCE_STATUSES) issuanceStatus?: StablecoinIssuanceStatus;
  @OptionalNotNull() @IsIn(STABLECOIN_GRID_OPERATIONS_STATUSES) gridOperationsStatus?: StablecoinGridOperationsStatus;
  @OptionalNotNull() @IsIn(STABLECOIN_PROVIDERS) provider?: StablecoinProvider;
}

/**
 * A mint's funding source, by `type`: WIRE (nothing else: the operation carries wire instructions), ACH_DEBIT and
 * SAME_DAY_ACH_DEBIT (`externalAccountId`: the bank account debited), GRID_INTERNAL_ACCOUNT (`accountId`: an internal
 * account debited on the ledger), PROVIDER_INTERNAL_BALANCE (`sourceTokenIdentifier`, `cryptoNetwork`).
 */
export class StablecoinMintFundingSourceDto {
  @IsIn(STABLECOIN_MINT_FUNDING_TYPES) type!: StablecoinMintFundingType;
  @ValidateIf((o: StablecoinMintFundingSourceDto) => o.type === 'ACH_DEBIT' || o.type === 'SAME_DAY_ACH_DEBIT' || o.externalAccountId !== undefined) @IsString() @MaxLength(ID_MAX) externalAccountId?: string;
  @ValidateIf((o: StablecoinMintFundingSourceDto) => o.type === 'GRID_INTERNAL_ACCOUNT' || o.accountId !== undefined) @IsString() @MaxLength(ID_MAX) accountId?: string;
  @ValidateIf((o: StablecoinMintFundingSourceDto) => o.type === 'PROVIDER_INTERNAL_BALANCE' || o.sourceTokenIdentifier !== undefined) @IsString() @MinLength(1) @MaxLength(64) @Matches(PROVIDER_TEXT) sourceTokenIdentifier?: string;
  @ValidateIf((o: StablecoinMintFundingSourceDto) => o.type === 'PROVIDER_INTERNAL_BALANCE' || o.cryptoNetwork !== undefined) @IsString() @Matches(/^[A-Z][A-Z0-9_]{1,31}$/, { message: 'cryptoNetwork must be a network name such as SOLANA' }) cryptoNetwork?: string;
}

/** The account that receives minted tokens: an `ExternalAccount:` Spark wallet, or an `InternalAccount:`. */
export class StablecoinMintDestinationDto {
  @IsString() @MaxLength(ID_MAX) accountId!: string;
}

export class StablecoinMintRequest {
  @IsString() @Matches(DIGITS, { message: 'amount must be a string of digits (the token\'s smallest unit)' }) amount!: string;
  @IsNotEmptyObject() @ValidateNested() @Type(() => StablecoinMintFundingSourceDto) fundingSource!: StablecoinMintFundingSourceDto;
  @IsNotEmptyObject() @ValidateNested() @Type(() => StablecoinMintDestinationDto) destination!: StablecoinMintDestinationDto;
  @OptionalNotNull() @IsString() @MaxLength(1024) description?: string;
}

/**
 * A burn's source, by `type`: EXTERNAL_ACCOUNT (the issuer sends the tokens to the deposit address of the operation's
 * funding instructions), GRID_INTERNAL_ACCOUNT (`accountId`), PROVIDER_INTERNAL_BALANCE (tokens the provider holds).
 */
export class StablecoinBurnSourceDto {
  @IsIn(STABLECOIN_BURN_SOURCE_TYPES) type!: StablecoinBurnSourceType;
  @ValidateIf((o: StablecoinBurnSourceDto) => o.type === 'GRID_INTERNAL_ACCOUNT' || o.accountId !== undefined) @IsString() @MaxLength(ID_MAX) accountId?: string;
}

/** The bank account the fiat proceeds of a burn are paid to, and the rail. */
export class StablecoinBurnDestinationDto {
  @IsIn(['EXTERNAL_ACCOUNT']) type!: 'EXTERNAL_ACCOUNT';
  @IsString() @MaxLength(ID_MAX) externalAccountId!: string;
  @IsIn(STABLECOIN_PAYOUT_RAILS) rail!: StablecoinPayoutRail;
}

export class StablecoinBurnRequest {
  @IsString() @Matches(DIGITS, { message: 'amount must be a string of digits (the token\'s smallest unit)' }) amount!: string;
  @IsNotEmptyObject() @ValidateNested() @Type(() => StablecoinBurnSourceDto) source!: StablecoinBurnSourceDto;
  @IsNotEmptyObject() @ValidateNested() @Type(() => StablecoinBurnDestinationDto) destination!: StablecoinBurnDestinationDto;
  @OptionalNotNull() @IsString() @MaxLength(1024) description?: string;
}

export class ListStablecoinOperationsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(STABLECOIN_OPERATION_TYPES) operationType?: StablecoinOperationType;
}
