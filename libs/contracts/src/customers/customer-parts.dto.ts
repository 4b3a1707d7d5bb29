import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsIP, IsISO8601, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { IsCalendarDate, IsCountryCode, IsName } from '../validators';
import { ACCEPTANCE_METHODS, BUSINESS_SOURCE_OF_FUNDS, ENTITY_TYPES, MONTHLY_TRANSACTION_COUNTS, MONTHLY_TRANSACTION_VOLUMES, PURPOSE_OF_ACCOUNT } from './customer-enums';

export class AddressDto {
  @IsString() @MinLength(1) @MaxLength(200) line1!: string;
  @OptionalNotNull() @IsString() @MaxLength(200) line2?: string;
  @IsString() @MinLength(1) @MaxLength(100) city!: string;
  @OptionalNotNull() @IsString() @MaxLength(100) state?: string;
  @IsString() @MinLength(1) @MaxLength(20) postalCode!: string;
  @IsCountryCode() country!: string;
}

export class EndUserTermsConsentDto {
  @IsISO8601({ strict: true }) acceptedAt!: string;
  @IsIP() @MaxLength(45) ipAddress!: string;
  @IsString() @MinLength(1) @MaxLength(64) termsVersion!: string;
  @IsIn(ACCEPTANCE_METHODS) acceptanceMethod!: (typeof ACCEPTANCE_METHODS)[number];
}

export class BusinessInfoDto {
  @IsName(250) legalName!: string;
  @OptionalNotNull() @IsString() @MaxLength(250) doingBusinessAs?: string;
  @IsCountryCode() country!: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(64) registrationNumber?: string;
  @IsCalendarDate() incorporatedOn!: string;
  @OptionalNotNull() @IsIn(ENTITY_TYPES) entityType?: (typeof ENTITY_TYPES)[number];
  @IsString() @MinLength(1) @MaxLength(64) taxId!: string;
  @OptionalNotNull() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) countriesOfOperation?: string[];
  @OptionalNotNull() @IsIn(PURPOSE_OF_ACCOUNT) purposeOfAccount?: (typeof PURPOSE_OF_ACCOUNT)[number];
  @OptionalNotNull() @IsArray() @ArrayUnique() @IsIn(BUSINESS_SOURCE_OF_FUNDS, { each: true }) sourceOfFundsCategories?: string[];
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_COUNTS) expectedMonthlyTransactionCount?: string;
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_VOLUMES) expectedMonthlyTransactionVolume?: string;
  @OptionalNotNull() @IsString() @Matches(/^\d{2,6}$/, { message: 'naicsCode must be 2 to 6 digits' }) naicsCode?: string;
}

