/**
 * Every public error code and its HTTP status, in one place (DESIGN §10: failures are named after the rule and
 * mapped to the envelope once). Codes follow the spec's error model; add a row when a new rule appears.
 */
export const ERROR_STATUS = {
  INVALID_INPUT: 400,
  INVALID_CURRENCY: 400,
  INVALID_AMOUNT: 400,
  INSUFFICIENT_FUNDS: 400,
  INVALID_BANK_ACCOUNT: 400,
  END_USER_TERMS_VERSION_NOT_FOUND: 400,
  VERIFICATION_ALREADY_DECIDED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  BULK_UPLOAD_JOB_NOT_FOUND: 404,
  HOLD_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  UMA_ADDRESS_EXISTS: 409,
  VERIFICATION_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  HOLD_ALREADY_CLOSED: 409,
  CAPTURE_EXCEEDS_HOLD: 409,
  CUSTOMER_DELETED: 410,
  KYC_LINK_USED: 410,
  KYC_LINK_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  ACCOUNT_LOCKED: 423,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  UNBALANCED_ENTRY: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusOf(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
