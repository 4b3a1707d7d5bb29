import type { Request } from 'express';
import type { FieldError } from '@payments/contracts';
import { printable, textProblem } from './text-problem';

/** A route layer of the Express 5 router: `match` decodes parameters (and throws on a malformed escape). */
export interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): { params?: Record<string, unknown> } | false;
}

const MALFORMED = { message: 'is not valid percent-encoded UTF-8', constraint: { percentEncodedUtf8: true } };

/**
 * The first path segment or query parameter that does not decode to storable text: a malformed or non-UTF-8
 * escape (`%FF`, `%ED%A0%80`, an encoded surrogate), or a NUL (`%00`). Read from the raw URL, because the query
 * parser replaces undecodable bytes with U+FFFD and the router throws on them. A path segment is named after the
 * route parameter it fills (`customerId`), or `path` when no route takes it; a query value after its parameter.
 */
export function urlProblem(req: Request, routes: () => RouteLayer[]): FieldError | undefined {
  const segments = req.path.split('/');
  const bad = segments.map((segment) => textProblemOf(decode(segment)));
  const first = bad.findIndex((problem) => problem !== undefined);
  if (first >= 0) {
    const field = parameterAt(req, segments, bad, first, routes()) ?? 'path';
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
function parameterAt(req: Request, segments: string[], bad: unknown[], index: number, layers: RouteLayer[]): string | undefined {
  const placeholder = (i: number) => `~unsafe-segment-${i}~`;
  const path = segments.map((segment, i) => (bad[i] ? placeholder(i) : segment)).join('/');
  const method = req.method.toLowerCase();
  const matches = layers.filter((layer) => layer.route).map((layer) => ({ layer, match: layer.match(path) }));
  const served = [...matches.filter((m) => m.match && m.layer.route!.methods[method]), ...matches.filter((m) => m.match)];
  for (const { match } of served) {
    const name = Object.entries((match && match.params) || {}).find(([, value]) => value === placeholder(index))?.[0];
    if (name) return name;
  }
  return undefined;
}
