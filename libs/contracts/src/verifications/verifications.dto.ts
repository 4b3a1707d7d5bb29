import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import { VERIFICATION_STATUSES, VerificationStatus } from './verification-enums';

/**
 * A Customer id as far as validation goes: the prefix and visible ASCII. Whether it names a customer of the caller
 * is answered by a 404, the same for a missing or a foreign one.
 */
export const CUSTOMER_ID_SHAPE = /^Customer:[\x21-\x7e]{1,200}$/;
const CUSTOMER_ID_MESSAGE = 'customerId must be a Customer id (Customer:<uuid>)';

/** POST /verifications: submit the customer for KYC (individual) or KYB (business); repeat after fixing `errors`. */
export class CreateVerificationRequest {
  @IsString() @MaxLength(210) @Matches(CUSTOMER_ID_SHAPE, { message: CUSTOMER_ID_MESSAGE }) customerId!: string;
}

/** GET /verifications. */
export class ListVerificationsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(210) @Matches(CUSTOMER_ID_SHAPE, { message: CUSTOMER_ID_MESSAGE }) customerId?: string;
  @OptionalNotNull() @IsIn(VERIFICATION_STATUSES) status?: VerificationStatus;
  /** The published name of `status`; when both are sent they must agree. */
  @OptionalNotNull() @IsIn(VERIFICATION_STATUSES) verificationStatus?: VerificationStatus;
}
