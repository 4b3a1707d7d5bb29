import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import type { Application, NextFunction, Request, Response } from 'express';
import { ApiError, ErrorEnvelope, FieldError } from '@payments/contracts';
import { jsonBodyProblem } from './json-body-problem';
import { RouteLayer, urlProblem } from './url-problem';

/**
 * 400 INVALID_INPUT for a URL that does not decode to storable text (NUL, unpaired surrogates, malformed escapes)
 * in a path segment or query parameter. Mounted first: the router itself throws on malformed path escapes.
 */
export function refuseUnsafeUrl(app: () => Application) {
  const routes = () => ((app() as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? []);
  return (req: Request, res: Response, next: NextFunction): void => {
    const problem = urlProblem(req, routes);
    if (problem) return refuse(res, problem);
    next();
  };
}

/**
 * Right after the JSON parser: 400 INVALID_INPUT for a body too deeply nested, with too long an array, or with text
 * the services cannot store (jsonBodyProblem), before guards, interceptors and validation walk it recursively. A
 * body the JSON parser left alone (multipart) is read raw by its route, so it cannot be compressed: 415.
 */
export function refuseUnsafeBody(req: Request, res: Response, next: NextFunction): void {
  if (req.body === undefined) return encodedRawBody(req) ? unsupportedEncoding(req, res) : next();
  const problem = jsonBodyProblem(req.body);
  if (problem) return refuse(res, problem);
  next();
}

/**
 * The same body check as a global pipe, for bodies a route parses itself after the middleware ran: multipart text
 * fields, read by multer in the route's FileInterceptor. (A JSON body passes it a second time, cheaply: its depth is
 * bounded by then.) Listed before the validation pipe, so the field is named for what it is, not for its format.
 */
export const refuseUnsafeRouteBody: PipeTransform = {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || metadata.data !== undefined) return value;
    // Every operation's body is an object: an array or a bare value is refused before validation looks at it.
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ApiError('INVALID_INPUT', 'the request body must be a JSON object', { errors: [{ field: 'body', message: 'send a JSON object' }] });
    }
    const problem = jsonBodyProblem(value);
    if (problem) throw new ApiError('INVALID_INPUT', problem.message, { errors: [problem] });
    return value;
  },
};

/** A body the JSON parser did not read (it sets no req.body) that still claims a Content-Encoding. */
function encodedRawBody(req: Request): boolean {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  return hasBody && encoding !== '' && encoding !== 'identity';
}

function unsupportedEncoding(req: Request, res: Response): void {
  const message = `Content-Encoding ${req.headers['content-encoding']} is only supported on JSON bodies`;
  const body: ErrorEnvelope = { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message };
  res.status(415).json(body);
}

function refuse(res: Response, problem: FieldError): void {
  const body: ErrorEnvelope = { status: 400, code: 'INVALID_INPUT', message: problem.message, details: { errors: [problem] } };
  res.status(400).json(body);
}
