import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, ErrorEnvelope, OUTAGE_ENVELOPE, retryAfterSecondsOf } from '@payments/contracts';
import { isInfrastructureFailure } from '@payments/eventsourcing';
import type { AuthChallenge } from '../auth/basic-auth.guard';
import { ReplayedResponse } from '../idempotency/replayed-response';
import { SignedChallengeIssued } from '../routing/signed-challenge';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'INVALID_INPUT',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** Every error leaves the gateway as `{status, code, message, details?}`; unexpected ones leak nothing. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(private readonly log: (message: string, error: unknown) => void = () => undefined) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    this.reply(exception, host.switchToHttp().getRequest<FastifyRequest>(), host.switchToHttp().getResponse<FastifyReply>());
  }

  /** The answer to a request that failed with `exception`: a replay, a signed challenge, or the error's envelope. */
  reply(exception: unknown, request: FastifyRequest & { authChallenge?: AuthChallenge }, response: FastifyReply): void {
    if (exception instanceof ReplayedResponse) {
      response.header('Idempotent-Replayed', 'true');
      response.code(exception.status);
      if (exception.body === null || exception.body === undefined || exception.status === 204) response.send();
      else response.send(exception.body);
      return;
    }
    if (exception instanceof SignedChallengeIssued) {
      response.code(202).send(exception.body);
      return;
    }
    const envelope = this.toEnvelope(exception);
    // The scheme the route takes (set by the guard): an agent's bearer token on Agent Operations, else HTTP Basic.
    if (envelope.status === 401 && request?.authChallenge !== 'none') response.header('WWW-Authenticate', `${request?.authChallenge === 'Bearer' ? 'Bearer' : 'Basic'} realm="payments-platform"`);
    // 429 and 503 say "the same request may succeed later": when (issue #42), so a client retries with its key.
    if (envelope.status === 429 || envelope.status === 503) response.header('Retry-After', String(retryAfterSecondsOf(envelope)));
    response.code(envelope.status).send(envelope);
  }

  toEnvelope(exception: unknown): ErrorEnvelope {
    if (exception instanceof ApiError) return exception.toEnvelope();
    const parserError = bodyParserError(exception) ?? serverError(exception);
    if (parserError) return parserError;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status];
      if (code) return { status, code, message: status === 404 ? 'no such resource or route' : exception.message };
    }
    if (isInfrastructureFailure(exception)) return OUTAGE_ENVELOPE; // the database or the bus is away: not the request's fault
    this.log('unexpected error while handling a request', exception);
    return { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' };
  }
}

const ZLIB_ERROR = /^(Z_|ERR__)/;

/**
 * body-parser's failures (request-body.ts) arrive as plain errors with a `type`; map the ones a client can cause. It decodes gzip,
 * deflate and br bodies itself (the size limit applies to the decoded bytes, so a zip bomb is a 413); a body that
 * does not decode comes back as the zlib stream's error, status 400 and no `type` (`Z_DATA_ERROR`, `Z_BUF_ERROR`,
 * brotli's `ERR__ERROR_FORMAT_…`).
 */
export function bodyParserError(exception: unknown, contentEncoding?: string): ErrorEnvelope | undefined {
  const { type, status, code, encoding } = (exception ?? {}) as { type?: string; status?: number; code?: unknown; encoding?: string };
  if (type === 'entity.parse.failed') return { status: 400, code: 'INVALID_INPUT', message: 'the request body is not valid JSON' };
  if (type === 'entity.too.large') return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
  if (type === 'encoding.unsupported') {
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Encoding ${encoding ?? ''} is not supported: send gzip, deflate, br or an uncompressed body` };
  }
  if (type === 'charset.unsupported') return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported body charset' };
  if (type === undefined && status === 400 && typeof code === 'string' && ZLIB_ERROR.test(code)) {
    const message = contentEncoding ? `the request body is not valid ${contentEncoding.trim().toLowerCase()}` : 'the request body does not decode as its Content-Encoding says';
    return { status: 400, code: 'INVALID_INPUT', message };
  }
  return undefined;
}

/**
 * A client error fastify itself raised before any route ran (a content type it cannot read, a body on a request that
 * may not have one, a malformed header), in the envelope with the status fastify chose; fastify's codes start FST_.
 */
function serverError(exception: unknown): ErrorEnvelope | undefined {
  const { code, statusCode, message } = (exception ?? {}) as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (typeof code !== 'string' || !code.startsWith('FST_') || typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return undefined;
  return { status: statusCode, code: CODE_BY_STATUS[statusCode] ?? 'INVALID_INPUT', message: typeof message === 'string' ? message : 'the request could not be read' };
}
