import type { Mode, Permission } from '@payments/contracts';

/** `secretHash` is a keyed hash (HMAC-SHA-256 with the server key); the relay removes it from the bus contract. */
export type TokenCreated = {
  type: 'TokenCreated.v1';
  data: {
    tokenId: string;
    platformId: string;
    mode: Mode;
    name: string;
    permissions: Permission[];
    clientId: string;
    secretHash: string;
    createdAt: string;
  };
};

export type TokenDeleted = {
  type: 'TokenDeleted.v1';
  data: { tokenId: string; platformId: string; mode: Mode; clientId: string; deletedAt: string };
};

export type TokenEvent = TokenCreated | TokenDeleted;
