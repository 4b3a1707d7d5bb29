import type { CallHandler, CanActivate, NestInterceptor, PipeTransform } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defer, lastValueFrom } from 'rxjs';
import { AnyHttpOperation, ApiError, FileAnswer, OperationInput, ServiceName, SignedOutcome } from '@payments/contracts';
import { AuthenticatedRequest, RequireAuth, RequireOperatorRole, RequirePermission, SandboxOnly } from '../auth/basic-auth.guard';
import type { HttpErrorFilter } from '../errors/http-error.filter';
import { IDEMPOTENCY_KEY_REQUIRED, SHOWN_ONCE } from '../idempotency/idempotency.interceptor';
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

/** What every operation passes through, in this order: the guard, its interceptors, the pipes; errors to the filter. */
export interface OperationPipeline {
  guard: CanActivate;
  /** On POSTs with credentials and on uploads: Idempotency-Key. */
  idempotency: NestInterceptor;
  /** On operations whose path holds the credential (`auth: 'none'`): failed attempts limited. */
  failedAttempts: NestInterceptor;
  /** In order, on the body and on the query (the object-body check, then class-validator). */
  pipes: readonly PipeTransform[];
  errors: HttpErrorFilter;
}

/**
 * Each declared operation bound straight to a route of the gateway's server: the guard (by the declared `auth`:
 * Basic auth and the declared permission, an agent's bearer token, or nothing), the interceptors, the pipes
 * (class-validator on the declared body and query classes) and the error filter run as Nest would run them for a
 * controller (guard, then interceptors around pipes and handler), with nothing written per operation and no
 * controller, router or observable in between (ADR 0009 decision 14). Registered most specific first, so a static
 * segment is tried before a parameter in the same place (`/customers/end-user-terms` before `/customers/{id}`).
 */
export function bindOperations(server: FastifyInstance, operations: readonly AnyHttpOperation[], deps: OperationRouteDeps, pipeline: OperationPipeline): void {
  for (const op of inRouteOrder(operations)) bindOperation(server, op, deps, pipeline);
}

/** The order routes are registered in: `/agents/me` before `/agents/{agentId}` (the router prefers static segments anyway). */
export function inRouteOrder(operations: readonly AnyHttpOperation[]): AnyHttpOperation[] {
  return [...operations].sort(byRouteSpecificity);
}

function bindOperation(server: FastifyInstance, op: AnyHttpOperation, deps: OperationRouteDeps, pipeline: OperationPipeline): void {
  const client = deps.clients[op.service];
  const dto = op.body ?? op.multipart?.fields;
  const declaration = declarationOf(op);
  // Idempotency-Key applies to POSTs only; other routes get no interceptor (each one costs every request, #14). A
  // route without credentials has no caller to scope keys by (anonymous callers would share them), and its answer
  // may be a secret shown once: no key there. The path holds the credential (a device code) on those: failed
  // attempts are limited per code, per source and globally.
  const interceptors: NestInterceptor[] = [];
  if (op.multipart || (op.method === 'POST' && op.auth !== 'none')) interceptors.push(pipeline.idempotency);
  if (op.auth === 'none') interceptors.push(pipeline.failedAttempts);
  // A multipart body is read (fields and file) before the route runs, as its route config says.
  const config: GatewayRouteConfig = op.multipart ? { multipart: { maxBytes: op.multipart.file.maxBytes, maxFields: op.multipart.file.maxFields } } : {};

  const answer = async (request: AuthenticatedRequest & { file?: UploadedFile }): Promise<unknown> => {
    const body = dto ? await piped(pipeline.pipes, request.body, { type: 'body', metatype: dto }) : undefined;
    const query = op.query ? await piped(pipeline.pipes, request.query, { type: 'query', metatype: op.query }) : {};
    const file = op.multipart ? request.file : undefined; // read with the body (request-body.ts)
    if (op.multipart?.file.required && !file) {
      throw new ApiError('INVALID_INPUT', 'a file is required', { errors: [{ field: 'file', message: 'send the file as the multipart/form-data part "file"' }] });
    }
    const input: OperationInput<string, unknown, unknown> = {
      params: request.params as Record<string, string>,
      query,
      body,
      file: file && { originalName: file.originalname, buffer: file.buffer },
      origin: deps.publicUrl ?? requestOrigin(request),
      signature: op.signedRetry || op.walletSignature ? walletSignatureHeaders(request) : {},
    };
    const answered = await client.call(op.rpc, { caller: request.caller, body: op.request(input) });
    const result = op.signedRetry ? unwrapSignedOutcome(answered as SignedOutcome<unknown, unknown>) : answered;
    deps.after?.[op.operationId]?.(result);
    return result;
  };

  const contextOf = (request: FastifyRequest, reply: FastifyReply) => {
    const context = new ExecutionContextHost([request, reply], undefined, declaration);
    context.setType('http');
    return context;
  };
  server.route({
    method: op.method,
    url: `${deps.prefix}${routerPath(op.path)}`,
    config,
    // The guard runs from the headers alone, before the body is read (onRequest, after the request checks): an
    // unknown or unauthorised caller's body is never parsed, inflated nor buffered (auth-before-body.e2e).
    onRequest: async (request, reply) => {
      try {
        if (!(await pipeline.guard.canActivate(contextOf(request, reply)))) throw new ApiError('FORBIDDEN', 'this caller may not use this operation');
      } catch (error) {
        pipeline.errors.reply(error, request, reply);
        return reply;
      }
    },
    handler: async (request, reply) => {
      const context = contextOf(request, reply);
      try {
        const result = await intercepted(interceptors, context, () => answer(request as AuthenticatedRequest));
        send(reply, op, result);
      } catch (error) {
        pipeline.errors.reply(error, request, reply);
      }
      return reply;
    },
  });
}

/**
 * A function standing for the operation, carrying what the guard and the interceptors read of it (its auth,
 * permission, role, sandbox-only, status, Idempotency-Key rule and shown-once paths) as the metadata Nest's
 * decorators put on a handler: they read it from `context.getHandler()`.
 */
function declarationOf(op: AnyHttpOperation): () => void {
  const declaration = { [op.operationId]: () => undefined }[op.operationId];
  const decorate = (decorator: (target: object) => unknown) => decorator(declaration);
  decorate(RequirePermission(op.permission) as (target: object) => unknown);
  decorate(RequireAuth(op.auth ?? 'platform') as (target: object) => unknown);
  if (op.operatorRole) decorate(RequireOperatorRole(op.operatorRole) as (target: object) => unknown);
  if (op.sandboxOnly) decorate(SandboxOnly() as (target: object) => unknown);
  Reflect.defineMetadata(HTTP_CODE_METADATA, op.status, declaration);
  if (op.idempotencyKey === 'required') Reflect.defineMetadata(IDEMPOTENCY_KEY_REQUIRED, true, declaration);
  if (op.shownOnce) Reflect.defineMetadata(SHOWN_ONCE, op.shownOnce, declaration);
  return declaration;
}

async function piped(pipes: readonly PipeTransform[], value: unknown, metadata: { type: 'body' | 'query'; metatype: unknown }): Promise<unknown> {
  let result = value;
  for (const pipe of pipes) result = await pipe.transform(result, metadata as Parameters<PipeTransform['transform']>[1]);
  return result;
}

/** The interceptors around the handler, outermost first, each given the rest as its `next` (deferred, as in Nest). */
async function intercepted(interceptors: readonly NestInterceptor[], context: ExecutionContextHost, run: () => Promise<unknown>): Promise<unknown> {
  if (interceptors.length === 0) return run();
  const [outer, ...inner] = interceptors;
  const next: CallHandler = { handle: () => defer(() => intercepted(inner, context, run)) };
  return lastValueFrom(await outer.intercept(context, next), { defaultValue: undefined });
}

function send(reply: FastifyReply, op: AnyHttpOperation, result: unknown): void {
  reply.code(op.status);
  if (op.fileResponse) {
    const file = fileAnswer(result as FileAnswer, op.fileResponse.contentTypes);
    // Never cached nor sniffed into another type.
    reply.headers({ 'Content-Type': file.contentType, 'Content-Disposition': file.disposition, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(file.bytes);
    return;
  }
  if (op.status === 204 || result === undefined || result === null) return void reply.send();
  reply.send(result);
}

/**
 * The bytes of a file answer (an operation declaring `fileResponse`), as an attachment; a type the operation does
 * not declare is a 500 rather than an undocumented answer.
 */
function fileAnswer(answer: FileAnswer, declared: readonly string[]): { bytes: Buffer; contentType: string; disposition: string } {
  if (!answer || typeof answer.base64 !== 'string' || !declared.includes(answer.contentType)) throw new Error(`file answer of an undeclared type: ${answer?.contentType}`);
  return { bytes: Buffer.from(answer.base64, 'base64'), contentType: answer.contentType, disposition: attachment(answer.fileName) };
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
export function routerPath(path: string): string {
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
