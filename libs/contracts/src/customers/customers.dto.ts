import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsIn, IsISO8601, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import { E164, IsCalendarDate, IsCountryCode, IsName } from '../validators';
import {
  ANNUAL_INCOME_RANGES,
  CUSTOMER_TYPES,
  CustomerType,
  ID_TYPES,
  MONTHLY_TRANSACTION_COUNTS,
  MONTHLY_TRANSACTION_VOLUMES,
  NET_WORTH_RANGES,
  PEP_STATUSES,
  PURPOSE_OF_ACCOUNT,
  SOURCE_OF_FUNDS,
  SOURCE_OF_WEALTH,
} from './customer-enums';
import { AddressDto, BusinessInfoDto, BusinessInfoUpdateDto, EndUserTermsConsentDto } from './customer-parts.dto';

const UMA_ADDRESS = /^\$[a-z0-9._-]{1,64}@[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** Fields a customer may carry; which ones a type may or must have is checked by the customer decider. */
export class CustomerFieldsDto {
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(128) @Matches(/^[\x21-\x7e]+$/, { message: 'platformCustomerId must be visible ASCII' })
  platformCustomerId?: string;
  @OptionalNotNull() @IsCountryCode() region?: string;
  @OptionalNotNull() @IsArray() @ArrayMaxSize(50) @ArrayUnique() @IsString({ each: true }) @Matches(/^[A-Z]{3,5}$/, { each: true, message: 'currencies must be currency codes' })
  currencies?: string[];
  @OptionalNotNull() @IsEmail() @MaxLength(254) email?: string;
  @OptionalNotNull() @IsString() @Matches(E164, { message: 'phoneNumber must be E.164, e.g. +14155552671' }) phoneNumber?: string;
  @OptionalNotNull() @IsString() @MaxLength(255) @Matches(UMA_ADDRESS, { message: 'umaAddress must look like $name@domain.tld' }) umaAddress?: string;
  @OptionalNotNull() @ValidateNested() @Type(() => EndUserTermsConsentDto) endUserTermsConsent?: EndUserTermsConsentDto;
  @OptionalNotNull() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  // Individuals
  @OptionalNotNull() @IsName(250) fullName?: string;
  @OptionalNotNull() @IsCalendarDate() birthDate?: string;
  @OptionalNotNull() @IsCountryCode() nationality?: string;
  @OptionalNotNull() @IsIn(ID_TYPES) idType?: (typeof ID_TYPES)[number];
  @OptionalNotNull() @IsString() @Matches(/^\d{3}-?\d{2}-?\d{4}$/, { message: 'identifier must be an SSN or ITIN (###-##-####)' }) identifier?: string;
  @OptionalNotNull() @IsCountryCode() countryOfIssuance?: string;
  @OptionalNotNull() @IsArray() @ArrayUnique() @IsIn(SOURCE_OF_FUNDS, { each: true }) sourceOfFundsCategories?: string[];
  @OptionalNotNull() @IsArray() @ArrayUnique() @IsIn(SOURCE_OF_WEALTH, { each: true }) sourceOfWealthCategories?: string[];
  @OptionalNotNull() @IsIn(PURPOSE_OF_ACCOUNT) purposeOfAccount?: string;
  /** With OTHER among the categories or as the purpose, what it is (published CustomerEdd; required then). */
  @OptionalNotNull() @IsName(500) sourceOfFundsOtherDescription?: string;
  @OptionalNotNull() @IsName(500) sourceOfWealthOtherDescription?: string;
  @OptionalNotNull() @IsName(500) purposeOfAccountOtherDescription?: string;
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_COUNTS) expectedMonthlyTransactionCount?: string;
  @OptionalNotNull() @IsIn(MONTHLY_TRANSACTION_VOLUMES) expectedMonthlyTransactionVolume?: string;
  @OptionalNotNull() @IsIn(ANNUAL_INCOME_RANGES) annualIncomeRange?: string;
  @OptionalNotNull() @IsIn(NET_WORTH_RANGES) netWorthRange?: string;
  @OptionalNotNull() @IsIn(PEP_STATUSES) pepStatus?: string;
  // Businesses: `businessInfo`, declared by each request (whole on create, partial on update).
}

/** POST /customers. */
export class CreateCustomerRequest extends CustomerFieldsDto {
  @IsIn(CUSTOMER_TYPES) customerType!: CustomerType;
  @OptionalNotNull() @ValidateNested() @Type(() => BusinessInfoDto) businessInfo?: BusinessInfoDto;
}

/** PATCH /customers/{id}: only the fields sent change; `customerType`, when sent, must be the customer's. */
export class UpdateCustomerRequest extends CustomerFieldsDto {
  @OptionalNotNull() @IsIn(CUSTOMER_TYPES) customerType?: CustomerType;
  /** Only the fields sent replace the stored ones (published BusinessInfoUpdate). */
  @OptionalNotNull() @ValidateNested() @Type(() => BusinessInfoUpdateDto) businessInfo?: BusinessInfoUpdateDto;
}

/** GET /customers. */
export class ListCustomersQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(128) platformCustomerId?: string;
  @OptionalNotNull() @IsIn(CUSTOMER_TYPES) customerType?: CustomerType;
  @OptionalNotNull() @IsCountryCode() region?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
  @OptionalNotNull() @IsString() @MaxLength(255) umaAddress?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) createdAfter?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) createdBefore?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) updatedAfter?: string;
  @OptionalNotNull() @IsISO8601({ strict: true }) updatedBefore?: string;
  @OptionalNotNull() @Type(() => String) @IsIn(['true', 'false']) isIncludingDeleted?: 'true' | 'false';
}

/** POST /customers/{id}/verify-email/confirm and verify-phone/confirm. */
export class ConfirmContactRequest {
  @IsString() @Matches(/^[0-9]{4,12}$/, { message: 'code must be 4-12 digits' }) code!: string;
}

export const isCustomerId = (value: string): boolean => /^Customer:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
