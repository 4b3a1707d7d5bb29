import { IsIn, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import type { BeneficiaryVerificationStatusValue, ExternalAccount, ExternalAccountStatus } from '../accounts/external-accounts.dto';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination';

/**
 * How a production external account becomes ACTIVE, configured per currency by an ADMIN operator:
 * - OPERATOR_APPROVAL: it waits in the operator queue (`/external-account-reviews`) for a REVIEWER to approve or
 *   reject it. The default of a currency never configured: a human looks before money goes anywhere.
 * - PAYOUT_RAIL: it waits for the rail that pays it out to verify it (an ACH prenote, a penny test): the rail reports
 *   through `AccountsRpc.recordRailVerification`. Named for who verifies, not how, so one value covers every rail.
 * The method is fixed on the account when it is created: a later change of the currency's method applies to new
 * accounts only. Sandbox accounts keep the sandbox rules (the beneficiary-name magic values and the timer).
 */
export const ACCOUNT_VERIFICATION_METHODS = ['OPERATOR_APPROVAL', 'PAYOUT_RAIL'] as const;
export type AccountVerificationMethod = (typeof ACCOUNT_VERIFICATION_METHODS)[number];
export const DEFAULT_ACCOUNT_VERIFICATION_METHOD: AccountVerificationMethod = 'OPERATOR_APPROVAL';
export const isAccountVerificationMethod = (value: unknown): value is AccountVerificationMethod => (ACCOUNT_VERIFICATION_METHODS as readonly unknown[]).includes(value);

/** One currency's verification method (GET /operator/v1/account-verification-methods, PUT .../{currency}). */
export interface AccountVerificationMethodView {
  currency: string;
  method: AccountVerificationMethod;
  /** false: never configured, so the default (OPERATOR_APPROVAL) applies. */
  configured: boolean;
  /**
   * When and by whom it was last set; absent while never configured.
   * @format date-time
   */
  updatedAt?: string;
  updatedBy?: { id: string; name: string };
}

/** Every currency external accounts accept, each with the method its new production accounts get. */
export interface AccountVerificationMethodList {
  defaultMethod: AccountVerificationMethod;
  data: AccountVerificationMethodView[];
}

/** PUT /operator/v1/account-verification-methods/{currency}. */
export class SetAccountVerificationMethodRequest {
  @IsIn(ACCOUNT_VERIFICATION_METHODS) method!: AccountVerificationMethod;
}

const REASON_MAX = 1000;

/** GET /operator/v1/external-account-reviews: oldest first; every filter narrows. */
export class ListExternalAccountReviewsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @MaxLength(200) platformId?: string;
  @OptionalNotNull() @IsString() @Matches(/^[A-Z0-9]{3,5}$/, { message: 'currency must be a currency code such as USD' }) currency?: string;
  /**
   * Whose verification the accounts wait for: OPERATOR_APPROVAL (the default: the operator queue) or PAYOUT_RAIL
   * (accounts waiting for their rail, listed so an operator can see them; they cannot be decided here).
   */
  @OptionalNotNull() @IsIn(ACCOUNT_VERIFICATION_METHODS) verificationMethod?: AccountVerificationMethod;
}

/** POST /operator/v1/external-account-reviews/{accountId}/approve: the reason is optional. */
export class ApproveExternalAccountRequest {
  @OptionalNotNull() @IsString() @MaxLength(REASON_MAX) reason?: string;
}

/** POST /operator/v1/external-account-reviews/{accountId}/reject: the reason is required (it goes to the audit log). */
export class RejectExternalAccountRequest {
  @IsString() @MinLength(1) @MaxLength(REASON_MAX) @Matches(/\S/, { message: 'reason must not be blank' }) reason!: string;
}

/** A production external account as an operator reviews it. */
export interface ExternalAccountReview {
  /**
   * The external account's id.
   * @pattern ^ExternalAccount:
   */
  id: string;
  platformId: string;
  /** Absent for a platform's own account. */
  customerId?: string;
  currency: string;
  /** ACTIVE once approved (or verified by its rail), UNVERIFIED once rejected (or failed by its rail). */
  status: ExternalAccountStatus;
  /** Fixed when the account was created. */
  verificationMethod: AccountVerificationMethod;
  /** The beneficiary-name check made at creation (absent for crypto wallets: no beneficiary). */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatusValue;
  /** @format date-time */
  createdAt: string;
  /** The account exactly as its platform sees it (GET /customers/external-accounts/{id}). */
  account: ExternalAccount;
}
