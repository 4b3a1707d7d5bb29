import type { FieldError } from '@payments/contracts';
import { pathOf } from './route-config';
import { printable, textProblem } from './text-problem';

/** The decoded parameters of the route serving `path` under `method`, or undefined when none does (the router's lookup). */
export type RouteFinder = (method: string, path: string) => Record<string, string> | undefined;

/** The methods a route may be served under, in the order a parameter's name is looked for (the request's own first). */
export const HTTP_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'] as const;

const MALFORMED = { message: 'is not valid percent-encoded UTF-8', constraint: { percentEncodedUtf8: true } };

/**
 * The first path segment or query parameter that does not decode to storable text: a malformed or non-UTF-8
 * escape (`%FF`, `%ED%A0%80`, an encoded surrogate), or a NUL (`%00`). Read from the raw URL, because the query
 * parser replaces undecodable bytes with U+FFFD and the router throws on them. A path segment is named after the
 * route parameter it fills (`customerId`), or `path` when no route takes it; a query value after its parameter.
 */
export function urlProblem(req: { method: string; url: string }, find: RouteFinder): FieldError | undefined {
  const segments = pathOf(req).split('/');
  const bad = segments.map((segment) => textProblemOf(decode(segment)));
  const first = bad.findIndex((problem) => problem !== undefined);
  if (first >= 0) {
    const field = parameterAt(req.method, segments, bad, first, find) ?? 'path';
    return { field, message: `${field} ${bad[first]!.message}`, constraint: bad[first]!.constraint };
  }
  const at = req.url.indexOf('?');
  if (at < 0) return undefined;
  for (const pair of req.url.slice(at + 1).split('&')) {
    const [rawKey, ...rawValue] = pair.split('=');
    const key = decode(rawKey);
    const keyProblem = textProblemOf(key);
    if (keyProblem) {
      const field = printable(key ?? rawKey);
      return { field, message: `the query parameter name ${field} ${keyProblem.message}`, constraint: keyProblem.constraint };
    }
    const valueProblem = textProblemOf(decode(rawValue.join('=')));
    if (valueProblem) return { field: key!, message: `${key} ${valueProblem.message}`, constraint: valueProblem.constraint };
  }
  return undefined;
}

/** A URL component as the query parser and router decode it; undefined when the escapes are not UTF-8. */
function decode(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function textProblemOf(decoded: string | undefined): Pick<FieldError, 'message' | 'constraint'> | undefined {
  return decoded === undefined ? MALFORMED : textProblem(decoded);
}

/**
 * The route parameter that segment `index` fills: the bad segments are swapped for placeholders the router can
 * decode, and the route serving this path (preferably under this method) says which parameter got the placeholder.
 */
function parameterAt(method: string, segments: string[], bad: unknown[], index: number, find: RouteFinder): string | undefined {
  const placeholder = (i: number) => `~unsafe-segment-${i}~`;
  const path = segments.map((segment, i) => (bad[i] ? placeholder(i) : segment)).join('/');
  for (const m of [method, ...HTTP_METHODS.filter((other) => other !== method)]) {
    const name = Object.entries(find(m, path) ?? {}).find(([, value]) => value === placeholder(index))?.[0];
    if (name) return name;
  }
  return undefined;
}
