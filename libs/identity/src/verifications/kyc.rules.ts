import type { Mode, VerificationError } from '@payments/contracts';
import { CustomerSnapshot } from './verification-inputs';
import { asksForEdd } from './sandbox-outcomes';

const BASIC_FIELDS = ['fullName', 'birthDate', 'nationality', 'address'] as const;

/** Enhanced due diligence: the customer field that answers each `edd.*` error (seed: PATCH them, then resubmit). */
export const EDD_FIELDS = ['sourceOfWealthCategories', 'purposeOfAccount', 'annualIncomeRange'] as const;

/**
 * What an individual's KYC still lacks: the basic identity data (both modes), and in the sandbox, for a fullName
 * ending in 003, the enhanced-due-diligence fields it does not have yet. Empty when the customer can be reviewed.
 */
export function kycErrors(customer: CustomerSnapshot, mode: Mode): VerificationError[] {
  const resourceId = customer.customerId;
  const errors: VerificationError[] = BASIC_FIELDS.filter((f) => isBlank(customer[f])).map((field) => ({
    resourceId,
    type: 'MISSING_FIELD',
    field,
    reason: `${field} is required for identity verification`,
  }));
  if (mode === 'SANDBOX' && asksForEdd(customer.fullName)) {
    for (const field of EDD_FIELDS) {
      if (isBlank(customer[field])) errors.push({ resourceId, type: 'MISSING_FIELD', field: `edd.${field}`, reason: `enhanced due diligence needs ${field}; PATCH the customer and resubmit` });
    }
  }
  return errors;
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}
