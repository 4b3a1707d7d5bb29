import { Controller, Inject } from '@nestjs/common';
import {
  AccountsRpc,
  AccountVerificationMethodList,
  AccountVerificationMethodView,
  AccountVerificationRpc,
  ApproveExternalAccountBody,
  EmptyBody,
  ExternalAccount,
  ExternalAccountReview,
  ExternalAccountReviewIdBody,
  ListExternalAccountReviewsQuery,
  Page,
  RecordRailVerificationRequest,
  RejectExternalAccountBody,
  RpcRequest,
  SetAccountVerificationMethodBody,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Accounts } from '../../accounts';
import { ACCOUNTS } from '../../accounts.tokens';
import type { OperatorAct } from './account-verification.service';

const now = () => new Date().toISOString();

/** `@Handles` has already checked the operator and the role (operatorRpc): the operator is on the caller. */
const actOf = (r: RpcRequest<unknown>): OperatorAct => ({ operator: r.caller.operator!, correlationId: r.caller.correlationId });

/** Thin RPC adapter of production external account verification: the operator API, and the payout rails' port. */
@Controller()
export class AccountVerificationRpcController {
  constructor(@Inject(ACCOUNTS) private readonly accounts: Accounts) {}

  @Handles(AccountVerificationRpc.listMethods)
  listMethods(_r: RpcRequest<EmptyBody>): Promise<AccountVerificationMethodList> {
    return this.accounts.accountVerification.listMethods();
  }

  @Handles(AccountVerificationRpc.setMethod)
  setMethod(r: RpcRequest<SetAccountVerificationMethodBody>): Promise<AccountVerificationMethodView> {
    return this.accounts.accountVerification.setMethod(actOf(r), r.body.currency, r.body.method, now());
  }

  @Handles(AccountVerificationRpc.listReviews)
  listReviews(r: RpcRequest<ListExternalAccountReviewsQuery>): Promise<Page<ExternalAccountReview>> {
    return this.accounts.accountVerification.listReviews(r.body);
  }

  @Handles(AccountVerificationRpc.getReview)
  getReview(r: RpcRequest<ExternalAccountReviewIdBody>): Promise<ExternalAccountReview> {
    return this.accounts.accountVerification.getReview(r.body.externalAccountId);
  }

  @Handles(AccountVerificationRpc.approve)
  approve(r: RpcRequest<ApproveExternalAccountBody>): Promise<ExternalAccountReview> {
    return this.accounts.accountVerification.approve(actOf(r), r.body.externalAccountId, r.body.reason, now());
  }

  @Handles(AccountVerificationRpc.reject)
  reject(r: RpcRequest<RejectExternalAccountBody>): Promise<ExternalAccountReview> {
    return this.accounts.accountVerification.reject(actOf(r), r.body.externalAccountId, r.body.reason, now());
  }

  @Handles(AccountsRpc.recordRailVerification)
  recordRailVerification(r: RecordRailVerificationRequest): Promise<ExternalAccount> {
    return this.accounts.accountVerification.recordRailVerification(r, now());
  }
}
