import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorEnvelope, FieldError } from '@payments/contracts';
import { nonCanonicalPath } from './canonical-routing';
import type { Refusal } from './gateway-http';
import { jsonBodyProblem } from './json-body-problem';
import { mediaTypeProblem } from './json-only';
import { methodNotAllowed } from './method-not-allowed';
import { pathOf, routeConfigOf } from './route-config';
import { RouteFinder, urlProblem } from './url-problem';

const NOT_FOUND: ErrorEnvelope = { status: 404, code: 'NOT_FOUND', message: 'no such resource or route' };

/**
 * What every request passes before its route runs, in this order: a path not spelled canonically is a 404; a URL
 * that does not decode to storable text a 400 naming the parameter; a path served only under other methods a 405;
 * a body that is not JSON (or multipart where files go) a 415.
 */
export function requestRefusal(find: RouteFinder, request: FastifyRequest): Refusal | undefined {
  const path = pathOf(request);
  const template = request.is404 ? undefined : request.routeOptions?.url;
  if (nonCanonicalPath(path) !== undefined || (template !== undefined && !spelledAs(template, path))) return { envelope: NOT_FOUND };
  const problem = urlProblem(request, find);
  if (problem) return { envelope: invalid(problem) };
  if (request.is404) {
    const notAllowed = methodNotAllowed(request.method, path, find);
    if (notAllowed) return notAllowed;
  }
  const media = mediaTypeProblem(request);
  return media ? { envelope: media } : undefined;
}

/**
 * Whether the path spells a route's static segments exactly as its template does. The router decodes
 * escapes before matching (`/customer%73` would reach `/customers`), while guards, metrics, redaction and the
 * idempotency hash read the path as sent: a route is served under one spelling only. Its parameters may be encoded
 * however the client likes; the router decodes them.
 */
function spelledAs(template: string, path: string): boolean {
  if (template === path) return true;
  const expected = template.split('/');
  const sent = path.split('/');
  if (expected.length !== sent.length) return expected.some((segment) => segment.startsWith('*'));
  return expected.every((segment, i) => segment === sent[i] || segment.startsWith(':') || segment.startsWith('*'));
}

/** The router refused a URL whose path parameter does not decode: the same 400 naming it, or undefined. */
export function badUrlRefusal(find: RouteFinder, request: FastifyRequest): Refusal | undefined {
  if (nonCanonicalPath(pathOf(request)) !== undefined) return { envelope: NOT_FOUND };
  const problem = urlProblem(request, find);
  return problem ? { envelope: invalid(problem) } : undefined;
}

/**
 * Once the body is parsed: 400 for one too deeply nested, with too long an array, or with text the services cannot
 * store (jsonBodyProblem), before guards, interceptors and validation walk it recursively.
 */
export function unsafeBodyRefusal(body: unknown, request: FastifyRequest): ErrorEnvelope | undefined {
  const config = routeConfigOf(request);
  if (body === undefined || config.rawBody || config.forwarded) return undefined;
  const problem = jsonBodyProblem(body);
  return problem ? invalid(problem) : undefined;
}

/**
 * The router's lookup, holding a path to one spelling of the route it matches. The lookup does not say which
 * template matched, so: every segment sent with an escape must be one of the parameters the router decoded (a
 * static segment is only ever sent plainly, as spelledAs requires of a matched request).
 */
export function routeFinder(app: FastifyInstance): RouteFinder {
  return (method, path) => {
    let params: Record<string, string> | undefined;
    try {
      params = (app.findRoute({ method: method as 'GET', url: path })?.params ?? undefined) as Record<string, string> | undefined;
    } catch {
      return undefined; // a parameter whose escapes do not decode: this path is not served under that name
    }
    if (!params) return undefined;
    const values = new Set(Object.values(params));
    return path.split('/').every((segment) => !segment.includes('%') || values.has(decoded(segment) ?? '')) ? params : undefined;
  };
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function invalid(problem: FieldError): ErrorEnvelope {
  return { status: 400, code: 'INVALID_INPUT', message: problem.message, details: { errors: [problem] } };
}
