import type { Verification } from '@payments/contracts';
import { OpenVerification } from './verification.state';

/** The Verification as the API returns it, from the folded state: the projection stores exactly this. */
export function toVerification(state: OpenVerification): Verification {
  return {
    id: state.verificationId,
    customerId: state.customerId,
    verificationStatus: state.status,
    errors: state.errors,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}
