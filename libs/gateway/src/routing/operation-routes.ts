import { Body, Controller, Delete, Get, Header, HttpCode, Patch, Post, Put, Query, Req, SetMetadata, StreamableFile, Type, UseInterceptors } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { AnyHttpOperation, ApiError, FileAnswer, HttpMethod, OperationInput, ServiceName, SignedOutcome } from '@payments/contracts';
import { AuthenticatedRequest, RequireAuth, RequireOperatorRole, RequirePermission, SandboxOnly } from '../auth/basic-auth.guard';
import { FailedAttemptsInterceptor } from '../auth/failed-attempts.interceptor';
import { IDEMPOTENCY_KEY_REQUIRED, IdempotencyInterceptor, SHOWN_ONCE } from '../idempotency/idempotency.interceptor';
import type { UploadedFile } from '../http/request-body';
import type { GatewayRouteConfig } from '../http/route-config';
import type { ServiceClient } from '../rpc/service-client';
import { unwrapSignedOutcome, walletSignatureHeaders } from './signed-challenge';

export interface OperationRouteDeps {
  /** Where the operations are served: `/<api version>` for the platform API, `/operator/v1` for the operator API. */
  prefix: string;
  clients: Record<ServiceName, ServiceClient>;
  /** The gateway's origin as clients reach it (PUBLIC_URL); unset, the request's own scheme and Host. */
  publicUrl?: string;
  /** Gateway-local work after an operation succeeded, by operationId (e.g. forgetting a deleted credential). */
  after?: Partial<Record<string, (result: unknown) => void>>;
}

const ROUTE: Record<HttpMethod, (path: string) => MethodDecorator> = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete };

/**
 * One Nest controller per declared operation, so every route goes through the same guard (by the declared `auth`:
 * Basic auth and the declared permission, an agent's bearer token, or nothing), pipes (class-validator on the
 * declared body and query classes), idempotency interceptor and error filter as a hand-written controller would,
 * with nothing written per operation. Ordered so a static segment is matched before a parameter in the same place
 * (`/customers/end-user-terms` before `/customers/{id}`, `/agents/me` before `/agents/{agentId}`).
 */
export function operationControllers(operations: readonly AnyHttpOperation[], deps: OperationRouteDeps): Type[] {
  return inRouteOrder(operations).map((op) => controllerFor(op, deps));
}

/** The order routes are registered in: `/agents/me` before `/agents/{agentId}` (the router prefers static segments anyway). */
export function inRouteOrder(operations: readonly AnyHttpOperation[]): AnyHttpOperation[] {
  return [...operations].sort(byRouteSpecificity);
}

function controllerFor(op: AnyHttpOperation, deps: OperationRouteDeps): Type {
  const client = deps.clients[op.service];
  const dto = op.body ?? op.multipart?.fields;
  const at = { body: dto ? 1 : -1, query: op.query ? (dto ? 2 : 1) : -1 };

  class OperationController {
    async handle(request: AuthenticatedRequest & { file?: UploadedFile }, ...args: unknown[]): Promise<unknown> {
      const file = op.multipart ? request.file : undefined; // read with the body (request-body.ts)
      if (op.multipart?.file.required && !file) {
        throw new ApiError('INVALID_INPUT', 'a file is required', { errors: [{ field: 'file', message: 'send the file as the multipart/form-data part "file"' }] });
      }
      const input: OperationInput<string, unknown, unknown> = {
        params: request.params as Record<string, string>,
        query: at.query > 0 ? args[at.query - 1] : {},
        body: at.body > 0 ? args[at.body - 1] : undefined,
        file: file && { originalName: file.originalname, buffer: file.buffer },
        origin: deps.publicUrl ?? requestOrigin(request),
        signature: op.signedRetry || op.walletSignature ? walletSignatureHeaders(request) : {},
      };
      const answer = await client.call(op.rpc, { caller: request.caller, body: op.request(input) });
      const result = op.signedRetry ? unwrapSignedOutcome(answer as SignedOutcome<unknown, unknown>) : answer;
      deps.after?.[op.operationId]?.(result);
      if (op.fileResponse) return fileAnswer(result as FileAnswer, op.fileResponse.contentTypes);
      return op.status === 204 ? undefined : result;
    }
  }
  Object.defineProperty(OperationController, 'name', { value: `${op.operationId[0].toUpperCase()}${op.operationId.slice(1)}Operation` });
  const proto = OperationController.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'handle')!;
  const decorate = (...decorators: MethodDecorator[]) => decorators.forEach((d) => d(proto, 'handle', descriptor));
  Controller()(OperationController);
  decorate(ROUTE[op.method](`${deps.prefix}${nestPath(op.path)}`), HttpCode(op.status), RequirePermission(op.permission), RequireAuth(op.auth ?? 'platform'));
  if (op.operatorRole) decorate(RequireOperatorRole(op.operatorRole));
  if (op.sandboxOnly) decorate(SandboxOnly());
  // Idempotency-Key applies to POSTs only; other routes get no interceptor (each one costs every request, #14). A
  // multipart body is read (fields and file) before the route runs, as its route config says. A route without
  // credentials has no caller to scope keys by (anonymous callers would share them), and its answer may be a secret
  // shown once: no key there.
  if (op.multipart) {
    const { maxBytes, maxFields } = op.multipart.file;
    decorate(RouteConfig({ multipart: { maxBytes, maxFields } } satisfies GatewayRouteConfig), UseInterceptors(IdempotencyInterceptor));
  } else if (op.method === 'POST' && op.auth !== 'none') {
    decorate(UseInterceptors(IdempotencyInterceptor));
  }
  if (op.idempotencyKey === 'required') decorate(SetMetadata(IDEMPOTENCY_KEY_REQUIRED, true));
  if (op.shownOnce) decorate(SetMetadata(SHOWN_ONCE, op.shownOnce));
  // The path holds the credential (a device code): failed attempts are limited per code, per source and globally.
  if (op.auth === 'none') decorate(UseInterceptors(FailedAttemptsInterceptor));
  // A file answer is never cached nor sniffed into another type.
  if (op.fileResponse) decorate(Header('Cache-Control', 'no-store'), Header('X-Content-Type-Options', 'nosniff'));
  Req()(proto, 'handle', 0);
  if (at.body > 0) Body()(proto, 'handle', at.body);
  if (at.query > 0) Query()(proto, 'handle', at.query);
  // The validation pipe validates each argument against its declared type, as it would for a decorated parameter.
  const types: unknown[] = [Object];
  if (at.body > 0) types[at.body] = dto;
  if (at.query > 0) types[at.query] = op.query;
  Reflect.defineMetadata('design:paramtypes', types, proto, 'handle');
  return OperationController;
}

/**
 * The bytes of a file answer (an operation declaring `fileResponse`), as an attachment; a type the operation does
 * not declare is a 500 rather than an undocumented answer.
 */
function fileAnswer(answer: FileAnswer, declared: readonly string[]): StreamableFile {
  if (!answer || typeof answer.base64 !== 'string' || !declared.includes(answer.contentType)) throw new Error(`file answer of an undeclared type: ${answer?.contentType}`);
  const bytes = Buffer.from(answer.base64, 'base64');
  return new StreamableFile(bytes, { type: answer.contentType, length: bytes.length, disposition: attachment(answer.fileName) });
}

/** `attachment` with the name in plain ASCII and in full (RFC 6266 / 8187); quotes, controls and separators dropped. */
function attachment(fileName: string): string {
  const name = [...String(fileName ?? 'file')].map((c) => (c.charCodeAt(0) < 0x20 || c === '\u007f' || '"\\/'.includes(c) ? '_' : c)).join('').slice(0, 200) || 'file';
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  let encoded: string;
  try {
    encoded = encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return `attachment; filename="${ascii}"`; // a lone surrogate has no UTF-8 form: the ASCII name alone
  }
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `/customers/{customerId}` → `/customers/:customerId` */
export function nestPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

function byRouteSpecificity(a: AnyHttpOperation, b: AnyHttpOperation): number {
  const as = a.path.split('/');
  const bs = b.path.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i++) {
    const aParam = as[i].startsWith('{');
    const bParam = bs[i].startsWith('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return as.length - bs.length;
}

/** The link goes back to the authenticated caller who sent this Host, so trusting it here leaks nothing to others. */
function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? 'localhost'}`;
}
