import { ArrayMaxSize, ArrayUnique, IsArray, IsDefined, IsIn, IsIP, IsISO8601, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { IsCalendarDate, IsCountryCode, IsName } from '../validators';
import {
  ACCEPTANCE_METHODS,
  BUSINESS_SOURCE_OF_FUNDS,
  BUSINESS_TYPES,
  ENTITY_TYPES,
  MONTHLY_TRANSACTION_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES,
  PURPOSE_OF_ACCOUNT,
} from './customer-enums';

/**
 * A required field: absent (or null) answers `<field> is required`. class-validator runs IsDefined before every other
 * rule of the property, so with the pipe's stopAtFirstError an absent field no longer reports the first rule it breaks
 * in registration order (decorators apply bottom-up: an absent `taxId` used to say it "must be shorter than or equal to
 * 64 characters").
 */
const Required = (): PropertyDecorator => IsDefined({ message: '$property is required' });

/** The published Address: line1, postalCode and country are required (city too is optional there). */
export class AddressDto {
  @Required() @IsString() @MinLength(1) @MaxLength(200) line1!: string;
  @OptionalNotNull() @IsString() @MaxLength(200) line2?: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(100) city?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) state?: string;
  @Required() @IsString() @MinLength(1) @MaxLength(20) postalCode!: string;
  @Required() @IsCountryCode() country!: string;
}

export class EndUserTermsConsentDto {
  @Required() @IsISO8601({ strict: true }) acceptedAt!: string;
  @Required() @IsIP() @MaxLength(45) ipAddress!: string;
  @Required() @IsString() @MinLength(1) @MaxLength(64) termsVersion!: string;
  @Required() @IsIn(ACCEPTANCE_METHODS) acceptanceMethod!: (typeof ACCEPTANCE_METHODS)[number];
}

/** The published BusinessInfo fields that are optional on create and update alike. */
export class BusinessInfoOptionalFieldsDto {
  @OptionalNotNull() @IsString() @MaxLength(250) doingBusinessAs?: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(64) registrationNumber?: string;
  @OptionalNotNull() @IsIn(ENTITY_TYPES) entityType?: (typeof ENTITY_TYPES)[number];
  @OptionalNotNull() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) countriesOfOperation?: string[];
  @OptionalNotNull() @IsIn(BUSINESS_TYPES) businessType?: (typeof BUSINESS_TYPES)[number];
  @OptionalNotNull() @IsIn(PURPOSE_OF_ACCOUNT) purposeOfAccount?: (typeof PURPOSE_OF_ACCOUNT)[number];
  /** Free text: the primary source of the business's funds. */
  @OptionalNotNull() @IsName(500) sourceOfFunds?: string;
  @OptionalNotNull() @IsArray() @ArrayUnique() @IsIn(BUSINESS_SOURCE_OF_FUNDS, { each: true }) sourceOfFundsCategories?: string[];
  @OptionalNotNull() @IsName(500) sourceOfFundsOtherDescription?: string;
  @OptionalNotNull() @IsName(500) purposeOfAccountOtherDescription?: string;
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_COUNTS) expectedMonthlyTransactionCount?: string;
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_VOLUMES) expectedMonthlyTransactionVolume?: string;
  @OptionalNotNull() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) expectedRecipientJurisdictions?: string[];
  @OptionalNotNull() @IsArray() @ArrayMaxSize(250) @ArrayUnique() @IsCountryCode({ each: true }) expectedCounterpartyCountries?: string[];
  @OptionalNotNull() @IsString() @Matches(/^\d{2,6}$/, { message: 'naicsCode must be 2 to 6 digits' }) naicsCode?: string;
  @OptionalNotNull() @IsName(250) primaryContactFirstName?: string;
  @OptionalNotNull() @IsName(250) primaryContactLastName?: string;
}

/** POST /customers (published BusinessInfo): legalName, country, incorporatedOn and taxId are required. */
export class BusinessInfoDto extends BusinessInfoOptionalFieldsDto {
  @Required() @IsName(250) legalName!: string;
  @Required() @IsCountryCode() country!: string;
  @Required() @IsCalendarDate() incorporatedOn!: string;
  @Required() @IsString() @MinLength(1) @MaxLength(64) taxId!: string;
}

/**
 * PATCH /customers/{id} (published BusinessInfoUpdate): every field optional, with the same rules when sent. The
 * fields sent replace the stored ones; the others stay (identity merges, then checks the whole profile).
 */
export class BusinessInfoUpdateDto extends BusinessInfoOptionalFieldsDto {
  @OptionalNotNull() @IsName(250) legalName?: string;
  @OptionalNotNull() @IsCountryCode() country?: string;
  @OptionalNotNull() @IsCalendarDate() incorporatedOn?: string;
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(64) taxId?: string;
}
