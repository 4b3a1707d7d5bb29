import type { Customer } from '@payments/contracts';
import { CustomerRecord } from './customer.state';

/** The Customer as the API returns it, from the folded state: the projection stores exactly this. */
export function toCustomer(state: CustomerRecord & { status: 'ACTIVE' | 'DELETED' }): Customer {
  const { identifier, ...profile } = state.profile;
  const channels = Object.entries(state.channels).map(([channel, s]) => [channel, s!.status] as const);
  return {
    id: state.customerId,
    platformCustomerId: state.platformCustomerId,
    customerType: state.customerType,
    umaAddress: state.umaAddress,
    currencies: state.currencies,
    ...profile,
    ...(identifier ? { identifierLast4: identifier.replace(/\D/g, '').slice(-4) } : {}),
    // Only the channels the region requires; absent when none is.
    ...(channels.length > 0 ? { contactVerification: Object.fromEntries(channels) } : {}),
    ...(state.customerType === 'BUSINESS' ? { kybStatus: state.kycStatus } : { kycStatus: state.kycStatus }),
    ...(state.status === 'DELETED' ? { isDeleted: true } : {}),
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}
