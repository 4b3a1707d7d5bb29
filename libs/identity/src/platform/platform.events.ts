import type { Catalogued, IDENTITY_EVENTS, PlatformCreatedData } from '@payments/contracts';

export type PlatformCreated = { type: 'PlatformCreated.v1'; data: PlatformCreatedData };

export type PlatformEvent = PlatformCreated;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, PlatformEvent> = true;
