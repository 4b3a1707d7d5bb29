import type { Catalogued, IDENTITY_EVENTS, OperatorCreatedData, OperatorDisabledData } from '@payments/contracts';

export type OperatorCreated = { type: 'OperatorCreated.v1'; data: OperatorCreatedData };
export type OperatorDisabled = { type: 'OperatorDisabled.v1'; data: OperatorDisabledData };

export type OperatorEvent = OperatorCreated | OperatorDisabled;

/** Every event of the stream is declared in the identity catalogue, its stored data fitting the declaration. */
const _declared: Catalogued<typeof IDENTITY_EVENTS, OperatorEvent> = true;
