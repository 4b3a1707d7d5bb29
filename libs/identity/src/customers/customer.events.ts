import type {
  Catalogued,
  ContactChannel,
  CustomerCreatedData,
  CustomerDeletedData,
  CustomerKycStatusChangedData,
  CustomerPublicProfile,
  CustomerUpdatedData,
  IDENTITY_EVENTS,
} from '@payments/contracts';

export type { ContactChannel } from '@payments/contracts';

/** What the platform told us about the customer (request fields after normalisation). `identifier` is PII: kept in the log, never published. */
export interface CustomerProfile extends CustomerPublicProfile {
  identifier?: string;
}

/** The public data is declared in libs/contracts (IDENTITY_EVENTS); the log keeps the id number too. */
export type CustomerCreated = { type: 'CustomerCreated.v1'; data: Omit<CustomerCreatedData, 'profile'> & { profile: CustomerProfile } };

export type CustomerUpdated = { type: 'CustomerUpdated.v1'; data: Omit<CustomerUpdatedData, 'changes'> & { changes: CustomerUpdatedData['changes'] & { identifier?: string } } };

export type CustomerDeleted = { type: 'CustomerDeleted.v1'; data: CustomerDeletedData };

/** `codeHash` is a keyed hash of the one-time code. The contact events are internal: they never leave identity. */
export type ContactCodeIssued = { type: 'ContactCodeIssued.v1'; data: { channel: ContactChannel; codeHash: string; expiresAt: string; issuedAt: string } };
export type ContactCodeRejected = {
  type: 'ContactCodeRejected.v1';
  data: { channel: ContactChannel; failedAttempts: number; lockedUntil: string | null; at: string };
};
export type ContactVerified = { type: 'ContactVerified.v1'; data: { channel: ContactChannel; at: string } };

/** KYC (individuals) or KYB (businesses) status moved; the webhook dispatcher maps it to CUSTOMER.KYC_* / KYB_*. */
export type CustomerKycStatusChanged = { type: 'CustomerKycStatusChanged.v1'; data: CustomerKycStatusChangedData };

export type CustomerEvent =
  | CustomerCreated
  | CustomerUpdated
  | CustomerDeleted
  | ContactCodeIssued
  | ContactCodeRejected
  | ContactVerified
  | CustomerKycStatusChanged;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, CustomerEvent> = true;
