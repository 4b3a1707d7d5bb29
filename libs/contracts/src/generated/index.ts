import responseSchemas from './response-schemas.json';

/**
 * JSON Schemas (draft 2020-12) of every type the public API answers with, by name, generated from the TypeScript
 * types of libs/contracts by `npm run contracts:generate` (tools/contracts/generate.js): never edit the JSON by
 * hand; change the type or its JSDoc and regenerate. `$ref`s point into `#/components/schemas/`.
 */
export const GENERATED_RESPONSE_SCHEMAS = responseSchemas;
