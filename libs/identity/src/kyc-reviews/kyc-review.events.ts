import type { Catalogued, CustomerType, IDENTITY_EVENTS, VerificationError } from '@payments/contracts';
import type { IdentityDigest, IdentityPart } from './material-identity';

/**
 * The manual review of one production verification (stream `KycReview:<uuid of the verification>`): opened by each
 * complete submission, approved (once or twice: four-eyes), then decided. Internal to identity: what leaves is the
 * verification's decision (Verification*.v1, CustomerKycStatusChanged.v1) and the operator's action
 * (OperatorActionRecorded.v1).
 */
export interface KycReviewCase {
  verificationId: string;
  customerId: string;
  platformId: string;
  customerType: CustomerType;
}

/**
 * A complete production submission entered the queue: `attempt` of its case, with the documents handed over and the
 * digest of the identity submitted (absent in reviews opened before digests were recorded).
 */
export type KycReviewOpened = {
  type: 'KycReviewOpened.v1';
  data: KycReviewCase & { attempt: number; documentIds: string[]; submittedAt: string; identity?: IdentityDigest };
};

/** A reviewer approved the submission (not yet decisive when another approval is required), about identity `digest`. */
export type KycReviewApprovalRecorded = {
  type: 'KycReviewApprovalRecorded.v1';
  data: { attempt: number; operatorId: string; operatorName: string; reason?: string; digest?: string; at: string };
};

/**
 * The identity under review changed materially (`changed` says which parts): the approvals recorded were about
 * another identity and are dropped (`approvalsDropped` keeps who they were for the reviewers); `identity` is now
 * what an approval must be about.
 */
export type KycReviewReset = {
  type: 'KycReviewReset.v1';
  data: {
    attempt: number;
    previousDigest?: string;
    identity: IdentityDigest;
    changed: IdentityPart[];
    approvalsDropped: { operatorId: string; operatorName: string; reason?: string; digest?: string; at: string }[];
    at: string;
  };
};

/**
 * The submission is decided: APPROVED (by the last approval needed), REJECTED, or RESOLVE_ERRORS (changes requested).
 * `errors` are what the verification shows the platform; `reason` is the reviewer's, for operators.
 */
export type KycReviewDecided = {
  type: 'KycReviewDecided.v1';
  data: { attempt: number; outcome: 'APPROVED' | 'REJECTED' | 'RESOLVE_ERRORS'; operatorId: string; operatorName: string; reason?: string; errors: VerificationError[]; at: string };
};

export type KycReviewEvent = KycReviewOpened | KycReviewApprovalRecorded | KycReviewReset | KycReviewDecided;

/** Every event of the stream is declared in the identity catalogue. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, KycReviewEvent> = true;
