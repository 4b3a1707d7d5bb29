import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsDefined, IsEmail, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { AddressDto } from '../customers/customer-parts.dto';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import { E164, IsCalendarDate, IsCountryCode, IsName } from '../validators';
import { BENEFICIAL_OWNER_ID_TYPES, BENEFICIAL_OWNER_ROLES, BeneficialOwnerIdType, BeneficialOwnerRole } from './verification-enums';
import { CUSTOMER_ID_SHAPE } from './verifications.dto';

const NAME_LENGTH_MAX = 100;
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9 -]{3,63}$/;
const IDENTIFIER_MESSAGE = 'identifier must be 4-64 letters, digits, spaces or dashes';

/** personalInfo of POST /beneficial-owners. Whether a U.S. tax id has the ###-##-#### form is a domain rule. */
export class BeneficialOwnerPersonalInfoDto {
  @IsName(NAME_LENGTH_MAX) firstName!: string;
  @OptionalNotNull() @IsName(NAME_LENGTH_MAX) middleName?: string;
  @IsName(NAME_LENGTH_MAX) lastName!: string;
  @IsCalendarDate() birthDate!: string;
  @IsCountryCode() nationality!: string;
  @OptionalNotNull() @IsEmail() @MaxLength(254) email?: string;
  @OptionalNotNull() @IsString() @Matches(E164, { message: 'phoneNumber must be E.164, e.g. +14155552671' }) phoneNumber?: string;
  // ValidateNested alone lets a missing object through; IsDefined makes it required.
  @IsDefined() @ValidateNested() @Type(() => AddressDto) address!: AddressDto;
  @IsIn(BENEFICIAL_OWNER_ID_TYPES) idType!: BeneficialOwnerIdType;
  /** Write-only: only its last four characters are ever returned. */
  @IsString() @Matches(IDENTIFIER, { message: IDENTIFIER_MESSAGE }) identifier!: string;
  @OptionalNotNull() @IsCountryCode() countryOfIssuance?: string;
}

/** personalInfo of PATCH /beneficial-owners/{id}: each field sent replaces the stored one (an address as a whole). */
export class UpdateBeneficialOwnerPersonalInfoDto {
  @OptionalNotNull() @IsName(NAME_LENGTH_MAX) firstName?: string;
  @OptionalNotNull() @IsName(NAME_LENGTH_MAX) middleName?: string;
  @OptionalNotNull() @IsName(NAME_LENGTH_MAX) lastName?: string;
  @OptionalNotNull() @IsCalendarDate() birthDate?: string;
  @OptionalNotNull() @IsCountryCode() nationality?: string;
  @OptionalNotNull() @IsEmail() @MaxLength(254) email?: string;
  @OptionalNotNull() @IsString() @Matches(E164, { message: 'phoneNumber must be E.164, e.g. +14155552671' }) phoneNumber?: string;
  @OptionalNotNull() @ValidateNested() @Type(() => AddressDto) address?: AddressDto;
  @OptionalNotNull() @IsIn(BENEFICIAL_OWNER_ID_TYPES) idType?: BeneficialOwnerIdType;
  @OptionalNotNull() @IsString() @Matches(IDENTIFIER, { message: IDENTIFIER_MESSAGE }) identifier?: string;
  @OptionalNotNull() @IsCountryCode() countryOfIssuance?: string;
}

class OwnershipFields {
  @OptionalNotNull() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(BENEFICIAL_OWNER_ROLES.length) @ArrayUnique() @IsIn(BENEFICIAL_OWNER_ROLES, { each: true })
  roles?: BeneficialOwnerRole[];
  @OptionalNotNull() @IsInt() @Min(0) @Max(100) ownershipPercentage?: number;
}

/** POST /beneficial-owners: an owner, director or officer of a BUSINESS customer. */
export class CreateBeneficialOwnerRequest {
  @IsString() @MaxLength(210) @Matches(CUSTOMER_ID_SHAPE, { message: 'customerId must be a Customer id (Customer:<uuid>)' }) customerId!: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(BENEFICIAL_OWNER_ROLES.length) @ArrayUnique() @IsIn(BENEFICIAL_OWNER_ROLES, { each: true })
  roles!: BeneficialOwnerRole[];
  @IsInt() @Min(0) @Max(100) ownershipPercentage!: number;
  @IsDefined() @ValidateNested() @Type(() => BeneficialOwnerPersonalInfoDto) personalInfo!: BeneficialOwnerPersonalInfoDto;
}

/** PATCH /beneficial-owners/{id}: only the fields sent change; the customer cannot change. */
export class UpdateBeneficialOwnerRequest extends OwnershipFields {
  @OptionalNotNull() @ValidateNested() @Type(() => UpdateBeneficialOwnerPersonalInfoDto) personalInfo?: UpdateBeneficialOwnerPersonalInfoDto;
}

/** GET /beneficial-owners: the owners of one business customer (required). */
export class ListBeneficialOwnersQuery extends PageQuery {
  @IsString() @MaxLength(210) @Matches(CUSTOMER_ID_SHAPE, { message: 'customerId must be a Customer id (Customer:<uuid>)' }) customerId!: string;
}
