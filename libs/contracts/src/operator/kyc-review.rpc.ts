import type { FileAnswer } from '../operations/http-operation';
import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type { ApproveKycReviewRequest, KycReview, ListKycReviewsQuery, RejectKycReviewRequest, RequestKycReviewChangesRequest } from './kyc-review.dto';

export interface KycReviewIdBody {
  verificationId: string;
}

export interface KycReviewDocumentBody extends KycReviewIdBody {
  documentId: string;
}

/**
 * The manual review queue of production KYC/KYB verifications (identity): VIEWER reads the queue, REVIEWER opens the
 * documents and decides.
 */
export const KycReviewsRpc = {
  list: operatorRpc<ListKycReviewsQuery, Page<KycReview>>('identity.kycReviews.list', 'VIEWER'),
  get: operatorRpc<KycReviewIdBody, KycReview>('identity.kycReviews.get', 'VIEWER'),
  documentFile: operatorRpc<KycReviewDocumentBody, FileAnswer>('identity.kycReviews.documentFile', 'REVIEWER'),
  approve: operatorRpc<ApproveKycReviewRequest & KycReviewIdBody, KycReview>('identity.kycReviews.approve', 'REVIEWER'),
  reject: operatorRpc<RejectKycReviewRequest & KycReviewIdBody, KycReview>('identity.kycReviews.reject', 'REVIEWER'),
  requestChanges: operatorRpc<RequestKycReviewChangesRequest & KycReviewIdBody, KycReview>('identity.kycReviews.requestChanges', 'REVIEWER'),
} as const;
