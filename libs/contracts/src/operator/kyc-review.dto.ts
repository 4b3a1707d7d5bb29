import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Matches, MaxLength, MinLength, ValidateNested } from 'class-validator';
import type { BeneficialOwner, Verification, VerificationError } from '../verifications/verification';
import type { Customer } from '../customers/customer';
import type { CustomerType } from '../customers/customer-enums';
import { CUSTOMER_TYPES } from '../customers/customer-enums';
import { Document, DOCUMENT_TYPES, DocumentType } from '../documents.dto';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';
import { VERIFICATION_ERROR_TYPES, VerificationErrorType } from '../verifications/verification-enums';

/**
 * Where a production verification stands in the manual review queue:
 * - AWAITING_REVIEW: submitted, no approval yet;
 * - AWAITING_SECOND_APPROVAL: one approval recorded, another reviewer's is needed (four-eyes, KYC_APPROVALS_REQUIRED=2);
 * - CHANGES_REQUESTED: a reviewer asked the platform for changes (the verification is RESOLVE_ERRORS); a resubmission
 *   puts it back as AWAITING_REVIEW;
 * - APPROVED, REJECTED: decided.
 */
export const KYC_REVIEW_STATUSES = ['AWAITING_REVIEW', 'AWAITING_SECOND_APPROVAL', 'CHANGES_REQUESTED', 'APPROVED', 'REJECTED'] as const;
export type KycReviewStatus = (typeof KYC_REVIEW_STATUSES)[number];

/** The statuses of the queue proper: what waits for a reviewer (GET /kyc-reviews without a reviewStatus filter). */
export const KYC_REVIEW_WAITING: readonly KycReviewStatus[] = ['AWAITING_REVIEW', 'AWAITING_SECOND_APPROVAL'];

/** One reviewer's approval of the current submission. */
export interface KycReviewApproval {
  operatorId: string;
  operatorName: string;
  reason?: string;
  /** The digest of the identity this approval is about (the review's `digest` when it was given). */
  digest?: string;
  /** @format date-time */
  approvedAt: string;
}

/** A material change to the identity under review while it waited: the approvals recorded until then were dropped. */
export interface KycReviewReset {
  /** The digest the dropped approvals were about (absent for a review opened before digests were recorded). */
  previousDigest?: string;
  /** The digest of the identity now under review. */
  digest: string;
  /** Which parts of the identity changed. */
  changed: ('customer' | 'beneficialOwners' | 'documents')[];
  approvalsDropped: KycReviewApproval[];
  /** @format date-time */
  resetAt: string;
}

/** What decided the current submission, and who. */
export interface KycReviewDecision {
  outcome: 'APPROVED' | 'REJECTED' | 'RESOLVE_ERRORS';
  /** The reviewer whose action decided (for APPROVED, the last approver). */
  operatorId: string;
  operatorName: string;
  /** The reviewer's own reason, for operators only (a rejection shows the platform a generic reason). */
  reason?: string;
  /** What the verification shows the platform: the changes requested, or why it was rejected. */
  errors: VerificationError[];
  /** @format date-time */
  decidedAt: string;
}

/** A production verification in the manual review queue, with everything a reviewer needs to decide it. */
export interface KycReview {
  /** @pattern ^Verification: */
  verificationId: string;
  platformId: string;
  customerType: CustomerType;
  reviewStatus: KycReviewStatus;
  /** The submission under review: 1, then one more for each resubmission after changes were requested. */
  attempt: number;
  /**
   * Approvals needed to approve (KYC_APPROVALS_REQUIRED).
   * @asType integer
   */
  approvalsRequired: number;
  /**
   * SHA-256 of the canonical form of the identity under review as it is now (the customer's material fields, its
   * beneficial owners, the documents they hold): what an approval is about. Send it with the approval.
   */
  digest: string;
  /** Approvals recorded for this submission so far, all of the same digest (cleared by a rejection, a request for changes or a reset). */
  approvals: KycReviewApproval[];
  /** Material changes while this submission waited, oldest first: each dropped the approvals recorded before it. */
  resets: KycReviewReset[];
  /** Set once the submission is decided (APPROVED, REJECTED, CHANGES_REQUESTED). */
  decision?: KycReviewDecision;
  /** @format date-time */
  submittedAt: string;
  verification: Verification;
  /** The customer as the platform API shows it. */
  customer: Customer;
  /** A business's beneficial owners as the platform API shows them (empty for individuals). */
  beneficialOwners: BeneficialOwner[];
  /** The documents handed over with this submission (metadata; the bytes: GET …/documents/{documentId}/file). */
  documents: Document[];
}

const REASON_MAX = 1_000;
/** A resource of the case a requested change names: the customer or one of its beneficial owners. */
const RESOURCE_ID = /^(Customer|BeneficialOwner):[\x21-\x7e]{1,200}$/;
/** A dot path such as `address`, `businessInfo.taxId`, `personalInfo.idType` or `edd.purposeOfAccount`. */
const FIELD_PATH = /^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*){0,4}$/;

/** GET /operator/v1/kyc-reviews: the queue, oldest submission first; without `reviewStatus`, what waits for a reviewer. */
export class ListKycReviewsQuery extends PageQuery {
  @OptionalNotNull() @IsIn(KYC_REVIEW_STATUSES) reviewStatus?: KycReviewStatus;
  @OptionalNotNull() @IsString() @MaxLength(200) platformId?: string;
  @OptionalNotNull() @IsIn(CUSTOMER_TYPES) customerType?: CustomerType;
}

/** POST /operator/v1/kyc-reviews/{verificationId}/approve. */
export class ApproveKycReviewRequest {
  @OptionalNotNull() @IsString() @MinLength(1) @MaxLength(REASON_MAX) reason?: string;
  /** The review's `digest` the reviewer looked at: when it is no longer the current one, 409 KYC_REVIEW_STALE and nothing is recorded. */
  @OptionalNotNull() @IsString() @Matches(/^[0-9a-f]{64}$/, { message: 'digest must be the review\'s digest (64 hex digits)' }) digest?: string;
}

/** POST /operator/v1/kyc-reviews/{verificationId}/reject: the reason is recorded for operators (the audit log). */
export class RejectKycReviewRequest {
  @IsString() @MinLength(1) @MaxLength(REASON_MAX) reason!: string;
}

/** One change the platform must make: an entry of the verification's `errors`, as the sandbox's RESOLVE_ERRORS has them. */
export class RequestedChangeDto {
  /** The customer under review or one of its beneficial owners. */
  @IsString() @MaxLength(210) @Matches(RESOURCE_ID, { message: 'resourceId must be the Customer under review or one of its BeneficialOwner ids' }) resourceId!: string;
  @IsIn(VERIFICATION_ERROR_TYPES) type!: VerificationErrorType;
  @OptionalNotNull() @IsString() @MaxLength(100) @Matches(FIELD_PATH, { message: 'field must be a dot path such as businessInfo.taxId' }) field?: string;
  @OptionalNotNull() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(DOCUMENT_TYPES.length) @IsIn(DOCUMENT_TYPES, { each: true }) acceptedDocumentTypes?: DocumentType[];
  /** Shown to the platform: what to fix. */
  @IsString() @MinLength(1) @MaxLength(REASON_MAX) reason!: string;
}

/** POST /operator/v1/kyc-reviews/{verificationId}/request-changes: the verification becomes RESOLVE_ERRORS with `errors`. */
export class RequestKycReviewChangesRequest {
  /** For operators (the audit log). */
  @IsString() @MinLength(1) @MaxLength(REASON_MAX) reason!: string;
  @IsArray() @ArrayMinSize(1) @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => RequestedChangeDto) errors!: RequestedChangeDto[];
}
