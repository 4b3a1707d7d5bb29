import { GENERATED_RESPONSE_SCHEMAS } from '@payments/contracts';

/**
 * JSON Schemas (draft 2020-12) of what the API returns, generated from the response types of libs/contracts
 * (`npm run contracts:generate`; a jest test fails when the generated file is stale). The TypeScript type is the one
 * declaration: to change a response schema, change the type or its JSDoc (`@format date-time`, `@pattern`,
 * `@minimum`...) and regenerate. They stay open (no `additionalProperties: false`): a client must tolerate fields
 * added later.
 */
export const RESPONSE_SCHEMAS: typeof GENERATED_RESPONSE_SCHEMAS = GENERATED_RESPONSE_SCHEMAS;

export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
