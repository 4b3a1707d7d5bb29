import type { Page } from '../pagination';
import { operatorRpc } from '../rpc/rpc-contract';
import type { EmptyBody } from '../rpc/rpc';
import type {
  AccountVerificationMethodList,
  AccountVerificationMethodView,
  ApproveExternalAccountRequest,
  ExternalAccountReview,
  ListExternalAccountReviewsQuery,
  RejectExternalAccountRequest,
  SetAccountVerificationMethodRequest,
} from './account-verification.dto';

export interface SetAccountVerificationMethodBody extends SetAccountVerificationMethodRequest {
  currency: string;
}

export interface ExternalAccountReviewIdBody {
  externalAccountId: string;
}

export interface ApproveExternalAccountBody extends ExternalAccountReviewIdBody, ApproveExternalAccountRequest {}
export interface RejectExternalAccountBody extends ExternalAccountReviewIdBody, RejectExternalAccountRequest {}

/** Production external account verification (accounts service): the methods per currency and the operator queue. */
export const AccountVerificationRpc = {
  listMethods: operatorRpc<EmptyBody, AccountVerificationMethodList>('accounts.operator.verification-methods.list', 'VIEWER'),
  setMethod: operatorRpc<SetAccountVerificationMethodBody, AccountVerificationMethodView>('accounts.operator.verification-methods.set', 'ADMIN'),
  listReviews: operatorRpc<ListExternalAccountReviewsQuery, Page<ExternalAccountReview>>('accounts.operator.external-account-reviews.list', 'VIEWER'),
  getReview: operatorRpc<ExternalAccountReviewIdBody, ExternalAccountReview>('accounts.operator.external-account-reviews.get', 'VIEWER'),
  approve: operatorRpc<ApproveExternalAccountBody, ExternalAccountReview>('accounts.operator.external-account-reviews.approve', 'REVIEWER'),
  reject: operatorRpc<RejectExternalAccountBody, ExternalAccountReview>('accounts.operator.external-account-reviews.reject', 'REVIEWER'),
} as const;
