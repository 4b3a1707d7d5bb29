import type { Mode, Permission } from '@payments/contracts';

export type PlatformCreated = {
  type: 'PlatformCreated.v1';
  data: { platformId: string; name: string; createdAt: string };
};

/** `secretHash` is a keyed hash (HMAC-SHA-256 with the server key); it is redacted from the bus contract. */
export type CredentialIssued = {
  type: 'CredentialIssued.v1';
  data: { clientId: string; name: string; mode: Mode; permissions: Permission[]; secretHash: string; issuedAt: string };
};

export type PlatformEvent = PlatformCreated | CredentialIssued;
