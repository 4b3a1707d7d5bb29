/**
 * Turns OpenAPI 3.0 schema forms (class-validator-jsonschema writes `nullable`) into OpenAPI 3.1 (whose schemas are JSON Schema draft
 * 2020-12), and orders every key so the served document is byte-stable: a contract change shows up as a diff.
 * Pure functions: no Nest, no I/O.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// Values under these keys are instance data, not schemas: a `nullable` inside an example is left alone.
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);
// Values under these keys are maps of names: a DTO property called `default` or a `default` response is an entry.
const NAME_MAPS = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', // JSON Schema
  'paths', 'webhooks', 'schemas', 'responses', 'parameters', 'requestBodies', 'headers', 'content', 'encoding', // OpenAPI
  'links', 'callbacks', 'securitySchemes', 'pathItems', 'variables',
]);
// The document reads best with these first; everything else (and every nested object) is alphabetical.
const TOP_LEVEL_ORDER = ['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components'];

export function toOpenApi31<T extends object>(document: T): T {
  const converted = convert(document as unknown as Json) as JsonObject;
  converted.openapi = '3.1.0';
  return sortKeys(converted, TOP_LEVEL_ORDER) as unknown as T;
}

function convert(node: Json, isNameMap = false): Json {
  if (Array.isArray(node)) return node.map((item) => convert(item));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (isNameMap) out[key] = convert(value);
    else out[key] = DATA_KEYS.has(key) ? value : convert(value, NAME_MAPS.has(key));
  }
  return isNameMap ? out : convertSchemaKeywords(out);
}

/** The 3.0-only schema keywords: `nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum`. */
function convertSchemaKeywords(schema: JsonObject): JsonObject {
  let out = schema;
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    const { [flag]: exclusive, [bound]: limit, ...rest } = out;
    // 2020-12 carries the bound in the exclusive keyword itself.
    out = exclusive && typeof limit === 'number' ? { ...rest, [flag]: limit } : { ...rest, ...(limit === undefined ? {} : { [bound]: limit }) };
  }
  if (typeof out.nullable !== 'boolean') return out;
  const { nullable, ...rest } = out;
  return nullable ? allowNull(rest) : rest;
}

function allowNull(schema: JsonObject): JsonObject {
  const type = schema.type;
  if (type === undefined) return { anyOf: [schema, { type: 'null' }] }; // $ref, allOf, oneOf…: no type to widen
  const types = Array.isArray(type) ? type : [type];
  const out: JsonObject = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
  // An enum restricts values on its own, so null must be listed there too or the type array would not help.
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}

/** Recursively orders object keys (arrays keep their order: `required`, `enum` and tags are meaningful lists). */
export function sortKeys(node: Json, firstKeys: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((item) => sortKeys(item));
  if (node === null || typeof node !== 'object') return node;
  const rank = (key: string) => (firstKeys.includes(key) ? firstKeys.indexOf(key) : firstKeys.length);
  const keys = Object.keys(node).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: JsonObject = {};
  for (const key of keys) out[key] = sortKeys(node[key]);
  return out;
}
