import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError, ErrorEnvelope } from '@payments/contracts';
import { ReplayedResponse } from '../idempotency/replayed-response';
import { uploadError } from './upload-errors';

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
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof ReplayedResponse) {
      response.setHeader('Idempotent-Replayed', 'true');
      response.status(exception.status);
      if (exception.body === null || exception.body === undefined || exception.status === 204) response.end();
      else response.json(exception.body);
      return;
    }
    const envelope = this.toEnvelope(exception);
    if (envelope.status === 401) response.setHeader('WWW-Authenticate', 'Basic realm="payments-platform"');
    if (envelope.status === 429) response.setHeader('Retry-After', String(envelope.details?.retryAfterSeconds ?? 1));
    response.status(envelope.status).json(envelope);
  }

  toEnvelope(exception: unknown): ErrorEnvelope {
    if (exception instanceof ApiError) return exception.toEnvelope();
    const parserError = bodyParserError(exception) ?? uploadError(exception);
    if (parserError) return parserError;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = CODE_BY_STATUS[status];
      if (code) return { status, code, message: status === 404 ? 'no such resource or route' : exception.message };
    }
    this.log('unexpected error while handling a request', exception);
    return { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' };
  }
}

/** express.json() failures arrive as plain errors with a `type`; map the ones a client can cause. */
export function bodyParserError(exception: unknown): ErrorEnvelope | undefined {
  const type = (exception as { type?: string })?.type;
  if (type === 'entity.parse.failed') return { status: 400, code: 'INVALID_INPUT', message: 'the request body is not valid JSON' };
  if (type === 'entity.too.large') return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'unsupported body encoding' };
  }
  return undefined;
}

/** Express error middleware placed right after the body parser, so parse failures never reach a route. */
export function bodyParserErrorHandler(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const envelope = bodyParserError(error);
  if (!envelope) return next(error);
  res.status(envelope.status).json(envelope);
}
