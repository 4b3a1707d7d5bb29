import { AnyHttpOperation, errorStatusesOf, ResponseShape } from '@payments/contracts';
import { dtoSchemaOf, dtoSchemas, SchemaMap, SCHEMA_REF_PREFIX } from './dto-schemas';
import { errorResponse } from './error-responses';
import { IDEMPOTENCY_KEY_PARAMETER, REPLAYED_HEADER, SHOWN_ONCE_NOTE } from './idempotency-key';
import { toOpenApi31 } from './openapi-31';
import { RESPONSE_SCHEMAS } from './response-schemas';

export const BASIC_AUTH = 'BasicAuth';
export const AGENT_AUTH = 'AgentAuth';
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });
const WALLET_SIGNATURE_PARAMETER = {
  name: 'Service-Wallet-Signature',
  in: 'header',
  required: false,
  description: 'The API-key stamp (base64url JSON `{publicKey, scheme, signature}`) of an Embedded Wallet session over the `payloadToSign` the API issued.',
  schema: { type: 'string', maxLength: 4096 },
};
const SIGNED_RETRY_PARAMETERS = [
  WALLET_SIGNATURE_PARAMETER,
  { name: 'Request-Id', in: 'header', required: false, description: 'The signed retry: the `requestId` of the 202 it answers.', schema: { type: 'string', maxLength: 128 } },
];
const AGENT_AUTH_SCHEME = {
  type: 'http',
  scheme: 'bearer',
  description: "An agent's access token (`POST /agents/device-codes/{code}/redeem`), for Agent Operations only; checked on every request.",
};
const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/**
 * The OpenAPI 3.1 document of the declared operations (libs/contracts/src/operations): paths, parameters and
 * request bodies from each declaration and its class-validator classes, responses from the schemas generated from
 * the response types (libs/contracts/src/generated). Paths are relative to the server URL `/<apiVersion>`, as in the
 * published API document. Pure: the same operations give the same bytes.
 */
export function buildOpenApiDocument(operations: readonly AnyHttpOperation[], apiVersion: string, api: ApiDescription = PLATFORM_API(apiVersion)): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  const all: SchemaMap = { ...dtoSchemas(), ...(RESPONSE_SCHEMAS as SchemaMap) };
  const tags = [...new Set(operations.map((op) => op.tag))].sort().map((name) => ({ name }));
  return toOpenApi31({
    openapi: '3.1.0',
    info: { title: api.title, description: api.description, version: apiVersion },
    servers: [{ url: api.serverUrl }],
    security: [{ [BASIC_AUTH]: [] }],
    tags,
    paths,
    components: {
      schemas: reachable(all, paths),
      securitySchemes: {
        [BASIC_AUTH]: { type: 'http', scheme: 'basic', description: api.basicAuth },
        ...(operations.some((op) => op.auth === 'agent') ? { [AGENT_AUTH]: AGENT_AUTH_SCHEME } : {}),
      },
    },
  });
}

/** What tells one API's document from the other's: the platform API, or the operator API. */
export interface ApiDescription {
  title: string;
  description: string;
  serverUrl: string;
  basicAuth: string;
}

const PLATFORM_API = (apiVersion: string): ApiDescription => ({
  title: 'Payments Platform API',
  description: 'Self-hostable payments platform. Every error is `{status, code, message, details?}`.',
  serverUrl: `/${apiVersion}`,
  basicAuth: '`<clientId>:<clientSecret>` of an API token.',
});

export const OPERATOR_API: ApiDescription = {
  title: 'Payments Platform operator API',
  description:
    'For the operator of a deployment: every platform, KYC/KYB and account decisions, rates and fees, and the audit log of what operators did. Platform credentials are refused here, operator credentials everywhere else. Every error is `{status, code, message, details?}`.',
  serverUrl: '/operator/v1',
  basicAuth: "`<clientId>:<clientSecret>` of an operator (`npm run admin -- operator:create`). The operator's role (VIEWER, REVIEWER, ADMIN) decides what they may do.",
};

function operationObject(op: AnyHttpOperation): Json {
  const parameters = [
    ...[...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(op.query ? queryParameters(op.query) : []),
    ...(idempotent(op) ? [idempotencyKeyParameter(op)] : []),
    ...(op.signedRetry ? SIGNED_RETRY_PARAMETERS : op.walletSignature ? [WALLET_SIGNATURE_PARAMETER] : []),
  ];
  const success: Json = { description: SUCCESS[op.status] };
  if (op.response && op.status !== 204) success.content = { 'application/json': { schema: successSchema(op.response) } };
  if (op.fileResponse) success.content = fileContent(op.fileResponse);
  if (idempotent(op)) success.headers = { 'Idempotent-Replayed': REPLAYED_HEADER };
  const responses: Json = { [op.status]: success };
  if (op.signedRetry) responses[202] = { description: 'A challenge: sign `payloadToSign` and repeat the request with the signature headers.', content: { 'application/json': { schema: ref(op.signedRetry.challenge) } } };
  for (const status of errorStatusesOf(op)) responses[status] = { ...errorResponse(status), content: { 'application/json': { schema: ref('Error') } } };
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...security(op),
    ...(parameters.length ? { parameters } : {}),
    ...requestBody(op),
    responses,
  };
}

/** BasicAuth, the document's default, applies unless the operation says otherwise. */
function security(op: AnyHttpOperation): Json {
  if (op.auth === 'agent') return { security: [{ [AGENT_AUTH]: [] }] };
  if (op.auth === 'none') return { security: [] };
  return {};
}

/** The header as the operation takes it: required or not, and what a replay leaves out of an answer shown once. */
function idempotencyKeyParameter(op: AnyHttpOperation): Json {
  const parameter: Json = op.idempotencyKey === 'required' ? { ...IDEMPOTENCY_KEY_PARAMETER, required: true } : { ...IDEMPOTENCY_KEY_PARAMETER };
  if (op.shownOnce?.length) parameter.description = `${IDEMPOTENCY_KEY_PARAMETER.description} ${SHOWN_ONCE_NOTE(op.shownOnce)}`;
  return parameter;
}

/** Idempotency-Key on every POST but those without credentials (no caller to scope keys by; operation-routes.ts). */
function idempotent(op: AnyHttpOperation): boolean {
  return op.method === 'POST' && op.auth !== 'none';
}

function requestBody(op: AnyHttpOperation): Json {
  if (op.body) return { requestBody: { required: !op.bodyOptional, content: { 'application/json': { schema: ref(op.body.name) } } } };
  if (!op.multipart) return {};
  // Inline rather than a `$ref`: the class's own schema is closed, so it cannot be combined with the `file` part.
  const { fields, file } = op.multipart;
  const schema = fields ? dtoSchemaOf(fields) : {};
  const required = [...(schema.required ?? []), ...(file.required ? ['file'] : [])];
  const filePart = { type: 'string', contentMediaType: 'application/octet-stream', description: file.description };
  return {
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', additionalProperties: false, properties: { ...schema.properties, file: filePart }, ...(required.length ? { required } : {}) },
        },
      },
    },
  };
}

/** A file answer: the bytes, in one of the declared types, named in Content-Disposition. */
function fileContent(file: NonNullable<AnyHttpOperation['fileResponse']>): Json {
  const schema = { type: 'string', format: 'binary', description: file.description };
  return Object.fromEntries(file.contentTypes.map((type) => [type, { schema }]));
}

function successSchema(shape: ResponseShape): Json {
  if (typeof shape === 'string') return ref(shape);
  return {
    type: 'object',
    required: ['data', 'hasMore', 'totalCount'],
    properties: {
      data: { type: 'array', items: ref(shape.page) },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present only when hasMore.' },
      totalCount: { type: 'integer', minimum: 0, description: 'Matching items, ignoring pagination.' },
    },
  };
}

function queryParameters(dto: Function): Json[] {
  const schema = dtoSchemaOf(dto);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

/**
 * Only the schemas the operations reference, directly or through other schemas. Every class-validator class
 * loaded in the process is a candidate (other services' internal DTOs too, when they share the process), so
 * without this the document would depend on what else happens to be loaded.
 */
export function reachable(schemas: SchemaMap, from: unknown): SchemaMap {
  const kept: SchemaMap = {};
  const pending = refsIn(from);
  while (pending.length) {
    const name = pending.pop()!;
    if (kept[name]) continue;
    if (!schemas[name]) throw new Error(`OpenAPI: the schema ${name} is referenced but not defined`);
    kept[name] = schemas[name];
    pending.push(...refsIn(schemas[name]));
  }
  return kept;
}

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF_PREFIX) ? [value.slice(SCHEMA_REF_PREFIX.length)] : refsIn(value),
  );
}
