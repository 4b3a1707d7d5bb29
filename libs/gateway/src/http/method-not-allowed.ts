import type { ErrorEnvelope } from '@payments/contracts';
import { HTTP_METHODS, RouteFinder } from './url-problem';

/**
 * 405 METHOD_NOT_ALLOWED with `Allow` for a path no route serves under the request's method but some route serves
 * under another; undefined when no route serves the path at all (a 404). Asked only for requests the router found no
 * route for, so a served request pays nothing for it. The router's own table answers, so no second list of routes
 * is kept in sync; HEAD is served wherever GET is.
 */
export function methodNotAllowed(method: string, path: string, find: RouteFinder): { envelope: ErrorEnvelope; allow: string } | undefined {
  const allowed = HTTP_METHODS.filter((m) => find(m, path) !== undefined);
  if (allowed.length === 0 || allowed.includes(method as (typeof HTTP_METHODS)[number])) return undefined;
  return { envelope: { status: 405, code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on this path` }, allow: allowed.join(', ') };
}
