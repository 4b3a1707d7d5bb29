/**
 * Every public error code and its HTTP status, in one place (DESIGN §10: failures are named after the rule and
 * mapped to the envelope once). Codes follow the spec's error model; add a row when a new rule appears.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_CURRENCY: 400,
  INVALID_AMOUNT: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  AMOUNT_BELOW_FEES: 400,
  SAME_CURRENCY: 400,
  INVALID_UMA_ADDRESS: 400,
  INVITATION_ALREADY_CLAIMED: 400,
  INVITATION_CANCELLED: 400,
  INVITATION_EXPIRED: 400,
  SELF_PAYMENT: 400,
  CURRENCY_MISMATCH: 400,
  SOURCE_NOT_PULL_CAPABLE: 400,
  FUNDING_AMOUNT_MISMATCH: 400,
  SCA_CHALLENGE_EXPIRED: 400,
  SCA_AUTHORIZATION_FAILED: 400,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 400,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  INSUFFICIENT_FUNDS: 400,
  INVALID_BANK_ACCOUNT: 400,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: 400,
  END_USER_TERMS_VERSION_NOT_FOUND: 400,
  VERIFICATION_ALREADY_DECIDED: 400,
  WEBHOOK_ENDPOINT_NOT_SET: 400,
  WEBHOOK_DELIVERY_ERROR: 400,
  /** Cards: the cardholder's kycStatus is not APPROVED; a funding source is not the cardholder's, not in the card currency, or refused. */
  CARDHOLDER_KYC_NOT_APPROVED: 400,
  FUNDING_SOURCE_INELIGIBLE: 400,
  /** DELETE /auth/delegated-keys/{id} of a key that is not ACTIVE. */
  DELEGATED_KEY_NOT_ACTIVE: 400,
  /** A device code that was redeemed, replaced by a newer one, or expired. */
  DEVICE_CODE_INVALID: 400,
  /** Stablecoins: the provider refused the link's credentials, revoked them, or several ACTIVE links leave the choice open. */
  STABLECOIN_PROVIDER_ACCOUNT_INVALID: 400,
  STABLECOIN_PROVIDER_ACCOUNT_REVOKED: 400,
  STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED: 400,
  UNAUTHORIZED: 401,
  /** The signed retry (Embedded Wallets): each way it can fail has its own code. */
  WALLET_SIGNATURE_MISSING: 401,
  WALLET_SIGNATURE_MALFORMED: 401,
  WALLET_SIGNATURE_BODY_MISMATCH: 401,
  WALLET_SIGNATURE_INVALID: 401,
  REQUEST_ID_MISSING: 401,
  FORBIDDEN: 403,
  /** An agent's spending limit (per transaction, daily amount or count, monthly) would be exceeded. */
  LIMIT_EXCEEDED: 403,
  /** The published Error403: the customer exists but its KYC/KYB is not APPROVED, so no production money moves for it. */
  USER_NOT_READY: 403,
  NOT_FOUND: 404,
  QUOTE_NOT_FOUND: 404,
  UMA_NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  LOOKUP_REQUEST_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  BULK_UPLOAD_JOB_NOT_FOUND: 404,
  CARD_NOT_FOUND: 404,
  AGENT_NOT_FOUND: 404,
  AGENT_ACTION_NOT_FOUND: 404,
  DEVICE_CODE_NOT_FOUND: 404,
  CARD_TRANSACTION_NOT_FOUND: 404,
  DELEGATED_KEY_NOT_FOUND: 404,
  STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: 404,
  /** A resource without a code of its own (external and internal accounts, documents, verifications, owners, links). */
  REFERENCE_NOT_FOUND: 404,
  HOLD_NOT_FOUND: 404,
  /** Operator API: a rail file whose bytes its connector cannot read back (still being written, removed, or a connector without file storage). */
  FILE_CONTENT_UNAVAILABLE: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  UMA_ADDRESS_EXISTS: 409,
  VERIFICATION_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  HOLD_ALREADY_CLOSED: 409,
  CAPTURE_EXCEEDS_HOLD: 409,
  BENEFICIARY_TRUSTED: 409,
  HOLD_EXPIRED: 409,
  TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL: 409,
  QUOTE_EXPIRED: 409,
  SCA_SESSION_REQUIRED: 409,
  SCA_NOT_REQUIRED: 409,
  PASSKEY_ALREADY_ENROLLED: 409,
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: 409,
  INVALID_STATE_TRANSITION: 409,
  CARD_ALREADY_CLOSED: 409,
  CARD_NOT_MUTABLE: 409,
  /** POST /auth/delegated-keys while the funding source has an ACTIVE key. */
  DELEGATED_KEY_EXISTS: 409,
  /** Operator API: a KYC/KYB submission that is not waiting for a reviewer (decided, or changes requested). */
  KYC_REVIEW_ALREADY_DECIDED: 409,
  /** Operator API, four-eyes: the operator who approved a submission approves it again; another reviewer must. */
  KYC_REVIEW_SAME_APPROVER: 409,
  /** Operator API: an approval of an identity digest that is no longer the one under review (it changed since). */
  KYC_REVIEW_STALE: 409,
  /** Production: a material change to a customer whose KYC/KYB is APPROVED (names, address, owners, documents...). */
  KYC_IDENTITY_LOCKED: 409,
  /** Operator API: a rail exception resolved already. */
  RAIL_EXCEPTION_ALREADY_RESOLVED: 409,
  CUSTOMER_DELETED: 410,
  KYC_LINK_USED: 410,
  KYC_LINK_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 409,
  ACCOUNT_LOCKED: 423,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: 424,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNBALANCED_ENTRY: 500,
  NOT_IMPLEMENTED: 501,
  /** Production has no rate source for the pair (an operator table entry, or the ECB's rates where it publishes both currencies). */
  RATE_SOURCE_NOT_CONFIGURED: 501,
  SERVICE_UNAVAILABLE: 503,
  /** Every source of the pair is past its validity or older than its maximum age: quoting in that corridor waits for a fresh rate. */
  RATE_STALE: 503,
  /** The configured source has not delivered yet (the ECB document was never fetched). */
  RATE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
