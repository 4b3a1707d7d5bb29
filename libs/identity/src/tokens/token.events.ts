import type { Catalogued, IDENTITY_EVENTS, TokenCreatedData, TokenDeletedData } from '@payments/contracts';

/** `secretHash` is a keyed hash (HMAC-SHA-256 with the server key); it is not published (IDENTITY_EVENTS). */
export type TokenCreated = { type: 'TokenCreated.v1'; data: TokenCreatedData & { secretHash: string } };

export type TokenDeleted = { type: 'TokenDeleted.v1'; data: TokenDeletedData };

export type TokenEvent = TokenCreated | TokenDeleted;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, TokenEvent> = true;
