import { IsBoolean, IsIn, IsObject, IsString, Matches, MaxLength } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { OptionalNotNull } from '../optional-not-null';
import { PageQuery } from '../pagination/pagination';
import type { QuoteCurrency, ScaChallenge } from '../quotes/quotes.dto';

/**
 * Seed ExternalAccount statuses, and the published UNVERIFIED ("the most recent verification attempt failed"): a
 * production account an operator rejected or its payout rail failed to verify. The published
 * PENDING_OWNERSHIP_VERIFICATION (wallet ownership challenges) is unused here.
 */
export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'UNVERIFIED', 'INACTIVE'] as const;
export type ExternalAccountStatus = (typeof EXTERNAL_ACCOUNT_STATUSES)[number];

export const BENEFICIARY_VERIFICATION_STATUSES = ['MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING'] as const;
export type BeneficiaryVerificationStatusValue = (typeof BENEFICIARY_VERIFICATION_STATUSES)[number];

/** POST /platform/external-accounts: an account of the platform itself (no customer). */
/** Whose account it is: the customer's own (FIRST_PARTY) or someone else's (THIRD_PARTY); published OwnershipType. */
export const OWNERSHIP_TYPES = ['FIRST_PARTY', 'THIRD_PARTY'] as const;
export type OwnershipType = (typeof OWNERSHIP_TYPES)[number];

export class CreatePlatformExternalAccountRequest {
  @IsString() @Matches(/^[A-Z0-9]{3,5}$/) currency!: string;
  @OptionalNotNull() @IsString() @MaxLength(255) platformAccountId?: string;
  /** Kept and answered; travel-rule checks that depend on it are not built. */
  @OptionalNotNull() @IsIn(OWNERSHIP_TYPES) ownershipType?: OwnershipType;
  /** Discriminated by `accountType`; the accounts service validates it against the account-type table. */
  @IsObject() accountInfo!: Record<string, unknown>;
}

/** POST /customers/external-accounts. */
export class CreateExternalAccountRequest extends CreatePlatformExternalAccountRequest {
  @IsString() @MaxLength(64) customerId!: string;
  /** Published: UMA payments to the customer land in this account. Only `false` (the default) is served here. */
  @OptionalNotNull() @IsBoolean() defaultUmaDepositAccount?: boolean;
}

/** GET /platform/external-accounts. */
export class ListPlatformExternalAccountsQuery extends PageQuery {
  @OptionalNotNull() @IsString() @Matches(/^[A-Z]{3,5}$/) currency?: string;
}

/** GET /customers/external-accounts. */
export class ListExternalAccountsQuery extends ListPlatformExternalAccountsQuery {
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
}

/**
 * POST /customers/external-accounts/{id}/untrust/confirm: the SCA proof (published BeneficiaryTrustConfirmRequest).
 * The untrust challenge's factor is SMS_OTP, so `code` (sandbox: 123456) is what confirms it; `passkeyAssertion` and
 * `origin` are accepted as fields and refused as a proof for it. `challengeId`, when sent, must be the open one.
 */
export class ConfirmUntrustRequest {
  @OptionalNotNull() @IsString() @MaxLength(16) code?: string;
  @OptionalNotNull() @IsString() @MaxLength(100) challengeId?: string;
  @OptionalNotNull() @IsObject() passkeyAssertion?: Record<string, unknown>;
  @OptionalNotNull() @IsString() @MaxLength(2048) origin?: string;
}

/** GET /receiver/external-account/{accountId} (interop §6.14). */
export class ReceiverLookupQuery {
  @OptionalNotNull() @IsString() @MaxLength(255) senderUmaAddress?: string;
  @OptionalNotNull() @IsString() @MaxLength(64) customerId?: string;
}

export interface ExternalAccount {
  /** @pattern ^ExternalAccount: */
  id: string;
  /** Absent for platform accounts. */
  customerId?: string;
  /** Only ACTIVE accounts can receive payments. */
  status: ExternalAccountStatus;
  /** @examples ["USD"] */
  currency: string;
  platformAccountId?: string;
  /** As sent at creation; absent when none was. */
  ownershipType?: OwnershipType;
  /**
   * As stored (the seed's form), minus write-only fields (beneficiary.documentNumber), plus the published API's
   * `paymentRails` of fiat accounts and a business beneficiary's legalName, taxId and registrationNumber beside businessInfo.
   */
  accountInfo: Record<string, unknown>;
  /** Absent for crypto wallets (no beneficiary to check). */
  beneficiaryVerificationStatus?: BeneficiaryVerificationStatusValue;
  /** A trusted beneficiary for SCA: DELETE answers 409 BENEFICIARY_TRUSTED until it is untrusted. */
  trustedBeneficiary: boolean;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** 202 of POST .../untrust: confirm with the code before `expiresAt`. */
export interface UntrustChallenge {
  /** @pattern ^ExternalAccount: */
  externalAccountId: string;
  factor: 'SMS_OTP';
  /** @format date-time */
  expiresAt: string;
  /** The same challenge in the published form (BeneficiaryTrustStart); its `id` may be sent back as `challengeId`. */
  scaChallenge: ScaChallenge;
}

/** The account after a confirmed untrust, with the published BeneficiaryTrustConfirm's `trusted` (always false here). */
export interface UntrustConfirmed extends ExternalAccount {
  trusted: boolean;
}

/** A currency the account receives (as in the UMA lookup). */
export interface ReceiverCurrency {
  currency: QuoteCurrency;
  /**
   * Units of `currency` per unit of the sending currency (mid rate, before fees); 1 when both are the same.
   * @exclusiveMinimum 0
   */
  estimatedExchangeRate: number;
  /**
   * Smallest amount the account can receive, in the smallest unit of `currency`.
   * @asType integer
   */
  min: number;
  /**
   * Largest amount the account can receive, in the smallest unit of `currency`.
   * @asType integer
   */
  max: number;
}

export interface ReceiverLookup {
  supportedCurrencies: ReceiverCurrency[];
  requiredPayerDataFields?: { name: string; mandatory: boolean }[];
  /**
   * `externalAccountLookupId`: a quote to the account may name it.
   * @pattern ^Lookup:
   */
  lookupId: string;
  /** @pattern ^ExternalAccount: */
  accountId: string;
}

/** Only ACTIVE external accounts receive or are pulled from: the one answer for any other status. */
export const externalAccountNotActive = (status: string): ApiError =>
  new ApiError('EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED', `the external account is ${status}: only ACTIVE accounts can receive payments`, { status });

export const isExternalAccountId = (value: string): boolean => /^ExternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
