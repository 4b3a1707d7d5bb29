import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger';
import { SCHEMA_REF_PREFIX } from './dto-schemas';
import { errorResponse } from './error-responses';

export const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Makes a retry safe: for at least 24 h, the same key returns the first response with `Idempotent-Replayed: true`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/**
 * The gateway's idempotency interceptor serves every POST, so the document says so once here rather than on each
 * route: the header, the replay marker on success, 409 (first request still running) and 422 (key reused with
 * another body). Returns a new `paths` object.
 */
export function withIdempotencyKey(paths: OpenAPIObject['paths']): OpenAPIObject['paths'] {
  const out: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(paths)) out[path] = item.post ? { ...item, post: idempotent(item.post) } : item;
  return out;
}

function idempotent(operation: OperationObject): OperationObject {
  const responses = { ...operation.responses };
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith('2') || !response || !('description' in response)) continue;
    const replayed = { description: 'Present, `true`, when this is a stored response replayed.', schema: { type: 'string', enum: ['true'] } };
    responses[status] = { ...response, headers: { ...response.headers, 'Idempotent-Replayed': replayed } };
  }
  for (const status of [409, 422] as const) {
    responses[status] ??= { ...errorResponse(status), content: { 'application/json': { schema: { $ref: `${SCHEMA_REF_PREFIX}Error` } } } };
  }
  const parameters = (operation.parameters ?? []).filter((p) => !('name' in p && p.name.toLowerCase() === 'idempotency-key'));
  return { ...operation, parameters: [...parameters, IDEMPOTENCY_KEY_PARAMETER], responses };
}
