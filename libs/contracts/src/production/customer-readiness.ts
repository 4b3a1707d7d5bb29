import { ApiError } from '../errors/api-error';
import type { KycStatus } from '../customers/customer-enums';
import type { Mode } from '../rpc/rpc';

/** What a service knows of a customer's verification, from identity's events (its own copy). */
export interface CustomerReadiness {
  /** kycStatus (kybStatus for a business); null when not known yet (projected before the service kept it). */
  kycStatus: KycStatus | null;
  customerType: 'INDIVIDUAL' | 'BUSINESS' | null;
}

/**
 * Production money moves only for customers whose KYC/KYB is APPROVED; the sandbox moves money for any customer, as
 * the seed does, and a platform's own account (no customer) is not gated. The one rule of payments (transfers) and
 * quoting (quote creation and execution): 403 USER_NOT_READY, the published code, before anything is recorded.
 */
export function customerNotReady(mode: Mode, customerId: string | null | undefined, customer: CustomerReadiness): ApiError | undefined {
  if (mode !== 'PRODUCTION' || !customerId || customer.kycStatus === 'APPROVED') return undefined;
  const field = customer.customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus';
  const status = customer.kycStatus ?? 'not known yet';
  return new ApiError('USER_NOT_READY', `customer ${customerId} has ${field} ${status}; production money moves only for APPROVED customers`, { customerId, [field]: customer.kycStatus });
}
