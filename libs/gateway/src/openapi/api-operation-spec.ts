import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { dtoSchemaOf, SCHEMA_REF_PREFIX } from './dto-schemas';
import { ErrorStatus, errorResponse } from './error-responses';
import { ResponseSchemaName } from './response-schemas';

/** A class-validator DTO from libs/contracts (its class name becomes the schema name). */
type DtoClass = new (...args: never[]) => object;

export interface OperationSpec {
  summary: string;
  description?: string;
  /** Defaults to `<method><Controller>`, e.g. `getConfig` for ConfigController.get. */
  operationId?: string;
  /** The `@Body()` DTO: the request schema is generated from its class-validator rules. */
  body?: DtoClass;
  /** A multipart/form-data body: the DTO's rules for the text parts, plus the binary part `file`. */
  multipart?: { fields: DtoClass; file: { required: boolean; description: string } };
  /** The `@Query()` DTO: one query parameter per property, with the same generated rules. */
  query?: DtoClass;
  /** Success body: a schema of response-schemas.ts, or `{ page: name }` for `{data, hasMore, nextCursor?, totalCount}`. */
  ok?: ResponseSchemaName | { page: ResponseSchemaName };
  /** Success status (default 200); 204 has no body. */
  okStatus?: 200 | 201 | 202 | 204;
  /** Every error status the route can answer with; each gets the shared `Error` body. */
  errors: ErrorStatus[];
}

const ref = (name: string) => ({ $ref: `${SCHEMA_REF_PREFIX}${name}` });
const SUCCESS: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/**
 * Documents one route of the public API for GET /openapi.json. Put it on every controller method; the e2e test
 * fails for any served route without a summary. Path parameters (`@Param`) are picked up by @nestjs/swagger;
 * headers such as Idempotency-Key go on with `@ApiHeader` next to this decorator.
 */
export function ApiOperationSpec(spec: OperationSpec): MethodDecorator {
  const status = spec.okStatus ?? 200;
  return applyDecorators(
    ApiOperation({ summary: spec.summary, ...(spec.description ? { description: spec.description } : {}), ...(spec.operationId ? { operationId: spec.operationId } : {}) }),
    ...(spec.body ? [ApiBody({ required: true, schema: ref(spec.body.name) })] : []),
    ...(spec.multipart ? multipartBody(spec.multipart) : []),
    ...(spec.query ? queryParameters(spec.query) : []),
    ApiResponse({ status, description: SUCCESS[status], ...(spec.ok && status !== 204 ? { schema: successSchema(spec.ok) } : {}) }),
    ...[...new Set(spec.errors)].map((code) => ApiResponse({ status: code, ...errorResponse(code), schema: ref('Error') })),
  );
}

function successSchema(ok: NonNullable<OperationSpec['ok']>) {
  if (typeof ok === 'string') return ref(ok);
  return {
    type: 'object',
    required: ['data', 'hasMore', 'totalCount'],
    properties: {
      data: { type: 'array', items: ref(ok.page) },
      hasMore: { type: 'boolean' },
      nextCursor: { type: 'string', description: 'Pass as `cursor` for the next page; present only when hasMore.' },
      totalCount: { type: 'integer', minimum: 0, description: 'Matching items, ignoring pagination.' },
    },
  };
}

function queryParameters(dto: DtoClass): MethodDecorator[] {
  const schema = dtoSchemaOf(dto);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) =>
    ApiQuery({ name, required: required.has(name), schema: property as object }),
  );
}

/** Inline rather than a `$ref`: the DTO's own schema is closed, so it cannot be combined with the `file` part. */
function multipartBody({ fields, file }: NonNullable<OperationSpec['multipart']>): MethodDecorator[] {
  const schema = dtoSchemaOf(fields);
  const required = [...(schema.required ?? []), ...(file.required ? ['file'] : [])];
  const fileSchema = { type: 'string', contentMediaType: 'application/octet-stream', description: file.description };
  return [
    ApiConsumes('multipart/form-data'),
    ApiBody({
      required: true,
      schema: { type: 'object', additionalProperties: false, properties: { ...schema.properties, file: fileSchema }, ...(required.length ? { required } : {}) } as object,
    }),
  ];
}
