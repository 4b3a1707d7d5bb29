import type { BeneficiaryVerificationStatusValue, ExternalAccountStatus } from '@payments/contracts';

/** The sandbox verification delay, at the spec's timing (multiplied by SANDBOX_TIME_SCALE). */
export const SANDBOX_VERIFICATION_DELAY_MS = 2_000;
/** How long an untrust waits for its confirmation code. */
export const UNTRUST_CODE_TTL_MS = 10 * 60_000;

/**
 * Where a sandbox verification lands, from the beneficiary-name check made at creation:
 * - MATCHED, UNSUPPORTED (the bank offers no name check: nothing adverse), CHECKED_BY_RECEIVING_FI (the bank checks
 *   on receipt) and no check at all (crypto wallets): ACTIVE;
 * - NOT_MATCHED and PARTIAL_MATCH: UNDER_REVIEW (a person must look before money goes there);
 * - PENDING: the check has not answered, the account stays PENDING.
 */
export function verifiedStatus(check: BeneficiaryVerificationStatusValue | null): ExternalAccountStatus {
  switch (check) {
    case null:
    case 'MATCHED':
    case 'UNSUPPORTED':
    case 'CHECKED_BY_RECEIVING_FI':
      return 'ACTIVE';
    case 'NOT_MATCHED':
    case 'PARTIAL_MATCH':
      return 'UNDER_REVIEW';
    case 'PENDING':
      return 'PENDING';
  }
}
