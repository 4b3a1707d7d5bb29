import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { createHash } from 'node:crypto';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { ApiError, canonicalJson } from '@payments/contracts';
import type { AuthenticatedRequest } from '../auth/basic-auth.guard';
import { pathOf } from '../http/route-config';
import { HttpErrorFilter } from '../errors/http-error.filter';
import { IdempotencyScope, IdempotencyStore } from './idempotency.store';
import { SignedChallengeIssued } from '../routing/signed-challenge';
import { ReplayedResponse } from './replayed-response';
import { withoutShownOnce } from './shown-once';


const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/; // visible ASCII, at most 255 characters
/** Handler metadata of operations declared `idempotencyKey: 'required'` (operation-routes.ts). */
export const IDEMPOTENCY_KEY_REQUIRED = 'payments:idempotency-key-required';
/** Handler metadata: the operation's declared `shownOnce` paths (operation-routes.ts). */
export const SHOWN_ONCE = 'payments:shown-once';

/**
 * `Idempotency-Key` on every POST (DESIGN §6; operation-routes.ts puts it on each POST route, after a multipart body
 * is read): the first request runs and its response is kept; a replay gets that response; the same key with another
 * body is 409 IDEMPOTENCY_KEY_REUSED (as the published API rejects conflicting payloads); a replay while the first
 * still runs is 409 IDEMPOTENCY_KEY_IN_USE. A 5xx keeps nothing. The kept answer has no field the operation declares
 * `shownOnce` (shown-once.ts): a secret is shown to the first answer only, and a replay answers without it.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly errors: HttpErrorFilter,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined && Reflect.getMetadata(IDEMPOTENCY_KEY_REQUIRED, context.getHandler()) === true) {
      throw new ApiError('INVALID_INPUT', 'Idempotency-Key is required on this operation', { errors: [{ field: 'Idempotency-Key', message: 'missing header' }] });
    }
    if (request.method !== 'POST' || key === undefined) return next.handle();
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new ApiError('INVALID_INPUT', 'Idempotency-Key must be 1-255 visible ASCII characters', { errors: [{ field: 'Idempotency-Key', message: 'invalid header' }] });
    }
    const scope: IdempotencyScope = { platformId: request.caller.platformId, mode: request.caller.mode, key: storedKeyOf(request, key) };
    const hash = requestHash(request);
    const claim = await this.store.claim(scope, hash);
    if (claim.outcome === 'mismatch') throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request');
    if (claim.outcome === 'in-flight') throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'a request with this Idempotency-Key is still being processed');
    if (claim.outcome === 'replay') throw new ReplayedResponse(claim.status, claim.body);
    const { claimId } = claim;

    // The service that owns the effect claims the key with it: a retry after a crash finds the original resource.
    request.caller = { ...request.caller, idempotency: { key, requestHash: hash } };
    const successStatus: number = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    const shownOnce: readonly string[] | undefined = Reflect.getMetadata(SHOWN_ONCE, context.getHandler());
    return next.handle().pipe(
      mergeMap((body) => from(this.store.complete(scope, hash, successStatus, withoutShownOnce(body, shownOnce)).then(() => body))),
      catchError((error) =>
        from(
          (async () => {
            if (error instanceof SignedChallengeIssued) {
              await this.store.release(scope, claimId); // a challenge is not the request's outcome: the signed retry may reuse the key
              throw error;
            }
            const envelope = this.errors.toEnvelope(error);
            if (envelope.status >= 500) await this.store.release(scope, claimId);
            else await this.store.complete(scope, hash, envelope.status, envelope);
            throw error;
          })(),
        ),
      ),
    );
  }
}

/**
 * The key as stored: an agent's keys are its own (two agents of a platform, or the agent and the platform, may
 * send the same key without meeting), and so are an operator's (operators have no platform: two reviewers sending
 * the same key must each have their approval recorded, not one replay the other's answer). A space is never in a client's key, so the two forms cannot collide. The
 * service still gets the client's key with the caller, which names the agent.
 */
function storedKeyOf(request: AuthenticatedRequest, key: string): string {
  if (request.caller.operator) return `operator:${request.caller.operator.operatorId} ${key}`; // operators share no platform: each has its own keys
  return request.caller.agent ? `agent:${request.caller.agent.agentId} ${key}` : key;
}

/** Method, path, the body with sorted keys and an uploaded file's digest: the same request in any key order hashes the same. */
function requestHash(request: AuthenticatedRequest & { file?: { fieldname: string; originalname: string; buffer: Buffer } }): string {
  const hash = createHash('sha256').update(`${request.method} ${pathOf(request)}\n${canonicalJson(request.body)}`);
  if (request.file) hash.update(`\n${request.file.fieldname}\n${request.file.originalname}\n`).update(request.file.buffer);
  return hash.digest('hex');
}
