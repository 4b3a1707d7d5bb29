import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { dtoSchemas, SchemaMap, SCHEMA_REF_PREFIX } from './dto-schemas';
import { withIdempotencyKey } from './idempotency-key';
import { toOpenApi31 } from './openapi-31';
import { RESPONSE_SCHEMAS } from './response-schemas';

export const BASIC_AUTH = 'BasicAuth';

/**
 * The OpenAPI 3.1 document of every route the app serves: @nestjs/swagger scans the routes and their
 * `ApiOperationSpec`s, class-validator supplies the request schemas, response-schemas.ts the response shapes.
 * Call it after `setGlobalPrefix` (paths carry the prefix) and once per process: the result does not change.
 */
export function buildOpenApiDocument(app: INestApplication, apiVersion: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Payments Platform API')
    .setDescription('Self-hostable payments platform. Every error is `{status, code, message, details?}`.')
    .setVersion(apiVersion)
    .addBasicAuth({ type: 'http', scheme: 'basic', description: '`<clientId>:<clientSecret>` of an API token.' }, BASIC_AUTH)
    .addSecurityRequirements(BASIC_AUTH)
    .build();
  const scanned = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${method}${controller.replace(/Controller$/, '')}`,
  });
  // Later sources win: swagger's own schemas for DTOs are empty shells, as the DTOs carry no @ApiProperty.
  const all: SchemaMap = { ...(scanned.components?.schemas as SchemaMap), ...dtoSchemas(), ...RESPONSE_SCHEMAS };
  const paths = withIdempotencyKey(scanned.paths);
  const schemas = reachable(all, paths);
  // DocumentBuilder leaves empty `servers`, `tags` and `info.contact`; they say nothing, so they go.
  const { servers, tags, ...rest } = scanned;
  const { contact, ...info } = scanned.info;
  const document: OpenAPIObject = {
    ...rest,
    paths,
    info: contact && Object.keys(contact).length ? scanned.info : info,
    ...(servers?.length ? { servers } : {}),
    ...(tags?.length ? { tags } : {}),
    components: { ...scanned.components, schemas },
  };
  return toOpenApi31(document);
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
