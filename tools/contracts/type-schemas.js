// JSON Schemas of named TypeScript types, for the generated contract files (OpenAPI response schemas, event
// schemas): the type is the one declaration, the schema is derived from it by ts-json-schema-generator, which
// reads JSDoc comments as descriptions. One mechanism for every generated schema.
const { createGenerator } = require('ts-json-schema-generator');

const DEFINITIONS = '#/definitions/';

/**
 * @param {{ path: string, tsconfig?: string, types: string[], refPrefix: string }} options
 *   path: the entry file that exports the types; refPrefix: where the schemas will live (e.g. '#/components/schemas/').
 * @returns {Record<string, object>} every named type and every type they reference, by name, refs rewritten.
 */
function typeSchemas({ path, tsconfig = 'tsconfig.json', types, refPrefix }) {
  const generator = createGenerator({
    path,
    tsconfig,
    type: '*',
    expose: 'export',
    jsDoc: 'extended',
    skipTypeCheck: true,
    topRef: true,
    additionalProperties: true, // answers stay open: a client must tolerate fields added later
    sortProps: true,
    functions: 'hide',
  });
  const schemas = {};
  for (const type of types) {
    const { definitions = {} } = generator.createSchema(type);
    for (const [name, schema] of Object.entries(definitions)) schemas[name] = rewriteRefs(schema, refPrefix);
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}

function rewriteRefs(node, refPrefix) {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, refPrefix));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith(DEFINITIONS)
        ? refPrefix + decodeURIComponent(value.slice(DEFINITIONS.length))
        : rewriteRefs(value, refPrefix),
    ]),
  );
}

module.exports = { typeSchemas };
