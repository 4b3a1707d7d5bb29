import { Controller, Inject } from '@nestjs/common';
import {
  ApproveKycReviewRequest,
  FileAnswer,
  KycReview,
  KycReviewDocumentBody,
  KycReviewIdBody,
  KycReviewsRpc,
  ListKycReviewsQuery,
  Page,
  RejectKycReviewRequest,
  RequestKycReviewChangesRequest,
  RpcRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Identity } from '../identity';
import { IDENTITY } from '../identity.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter for the operator API's KYC/KYB review queue (@Handles refuses anyone but an operator with the role). */
@Controller()
export class KycReviewRpcController {
  constructor(@Inject(IDENTITY) private readonly identity: Identity) {}

  @Handles(KycReviewsRpc.list)
  list(r: RpcRequest<ListKycReviewsQuery>): Promise<Page<KycReview>> {
    return this.identity.kycReviews.list(r.body);
  }

  @Handles(KycReviewsRpc.get)
  get(r: RpcRequest<KycReviewIdBody>): Promise<KycReview> {
    return this.identity.kycReviews.get(String(r.body.verificationId));
  }

  @Handles(KycReviewsRpc.documentFile)
  documentFile(r: RpcRequest<KycReviewDocumentBody>): Promise<FileAnswer> {
    return this.identity.kycReviews.documentFile(r.caller, String(r.body.verificationId), String(r.body.documentId));
  }

  @Handles(KycReviewsRpc.approve)
  approve(r: RpcRequest<ApproveKycReviewRequest & KycReviewIdBody>): Promise<KycReview> {
    return this.identity.kycReviews.approve(r.caller, String(r.body.verificationId), r.body, now());
  }

  @Handles(KycReviewsRpc.reject)
  reject(r: RpcRequest<RejectKycReviewRequest & KycReviewIdBody>): Promise<KycReview> {
    return this.identity.kycReviews.reject(r.caller, String(r.body.verificationId), r.body, now());
  }

  @Handles(KycReviewsRpc.requestChanges)
  requestChanges(r: RpcRequest<RequestKycReviewChangesRequest & KycReviewIdBody>): Promise<KycReview> {
    return this.identity.kycReviews.requestChanges(r.caller, String(r.body.verificationId), r.body, now());
  }
}
