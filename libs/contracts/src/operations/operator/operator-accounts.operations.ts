import {
  ApproveExternalAccountRequest,
  ListExternalAccountReviewsQuery,
  RejectExternalAccountRequest,
  SetAccountVerificationMethodRequest,
} from '../../operator/account-verification.dto';
import { AccountVerificationRpc } from '../../operator/account-verification.rpc';
import { operation } from '../http-operation';

const DECISION =
  'The decision, the account\'s status change and the audit record (`GET /audit-events`) commit together; the platform gets ' +
  'the `EXTERNAL_ACCOUNT.STATUS_UPDATED` webhook with the account, as for a sandbox verification. Deciding an account that is ' +
  'no longer awaiting a decision (or that waits for its payout rail) is 409; an unknown, deleted or sandbox account is 404.';

/** Production external account verification (accounts service): the method per currency, the queue, the decisions. */
export const OPERATOR_ACCOUNTS_OPERATIONS = [
  operation({
    operationId: 'listAccountVerificationMethods',
    method: 'GET',
    path: '/account-verification-methods',
    tag: 'External account verification',
    summary: 'How production external accounts are verified, per currency',
    description:
      'Every currency external accounts accept, with the method its new production accounts get: OPERATOR_APPROVAL (the ' +
      'operator queue; the default of a currency never configured) or PAYOUT_RAIL (the payout rail verifies, e.g. an ACH prenote).',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'accounts',
    rpc: AccountVerificationRpc.listMethods,
    status: 200,
    response: 'AccountVerificationMethodList',
    request: () => ({}),
  }),
  operation({
    operationId: 'setAccountVerificationMethod',
    method: 'PUT',
    path: '/account-verification-methods/{currency}',
    tag: 'External account verification',
    summary: 'Set how new production external accounts in a currency are verified',
    description:
      'Applies to accounts created from now on; accounts already waiting keep the method they were created with. Audited ' +
      '(`account-verification.configure`) with the change; setting the method a currency already has changes and records nothing. ' +
      'A currency external accounts do not accept is 400.',
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'ADMIN',
    service: 'accounts',
    rpc: AccountVerificationRpc.setMethod,
    body: SetAccountVerificationMethodRequest,
    status: 200,
    response: 'AccountVerificationMethodView',
    request: ({ params, body }) => ({ currency: params.currency, method: body.method }),
  }),
  operation({
    operationId: 'listExternalAccountReviews',
    method: 'GET',
    path: '/external-account-reviews',
    tag: 'External account verification',
    summary: 'Production external accounts awaiting a decision, oldest first',
    description:
      'PENDING (or UNDER_REVIEW) production accounts whose verification is OPERATOR_APPROVAL; `verificationMethod=PAYOUT_RAIL` lists ' +
      'those waiting for their payout rail instead. Filters narrow: platformId, currency.',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'accounts',
    rpc: AccountVerificationRpc.listReviews,
    query: ListExternalAccountReviewsQuery,
    status: 200,
    response: { page: 'ExternalAccountReview' },
    request: ({ query }) => query,
  }),
  operation({
    operationId: 'getExternalAccountReview',
    method: 'GET',
    path: '/external-account-reviews/{accountId}',
    tag: 'External account verification',
    summary: 'A production external account as its platform sees it, with its platform, method and name check',
    permission: 'VIEW',
    auth: 'operator',
    operatorRole: 'VIEWER',
    service: 'accounts',
    rpc: AccountVerificationRpc.getReview,
    status: 200,
    response: 'ExternalAccountReview',
    request: ({ params }) => ({ externalAccountId: params.accountId }),
  }),
  operation({
    operationId: 'approveExternalAccount',
    method: 'POST',
    path: '/external-account-reviews/{accountId}/approve',
    tag: 'External account verification',
    summary: 'Approve an external account: it becomes ACTIVE and can receive payments',
    description: DECISION,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'accounts',
    rpc: AccountVerificationRpc.approve,
    body: ApproveExternalAccountRequest,
    bodyOptional: true,
    status: 200,
    response: 'ExternalAccountReview',
    request: ({ params, body }) => ({ externalAccountId: params.accountId, ...(body?.reason !== undefined ? { reason: body.reason } : {}) }),
  }),
  operation({
    operationId: 'rejectExternalAccount',
    method: 'POST',
    path: '/external-account-reviews/{accountId}/reject',
    tag: 'External account verification',
    summary: 'Reject an external account with a reason: it becomes UNVERIFIED and cannot receive payments',
    description: DECISION,
    permission: 'MANAGE',
    auth: 'operator',
    operatorRole: 'REVIEWER',
    service: 'accounts',
    rpc: AccountVerificationRpc.reject,
    body: RejectExternalAccountRequest,
    status: 200,
    response: 'ExternalAccountReview',
    request: ({ params, body }) => ({ externalAccountId: params.accountId, reason: body.reason }),
  }),
];
