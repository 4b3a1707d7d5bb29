import type { Application, NextFunction, Request, Response } from 'express';
import { ErrorEnvelope } from '@payments/contracts';

interface RouteLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
  match(path: string): unknown;
}

/** Leading path segments a route bucket is keyed by: `/<version>/<resource>` or `/operator/v1`. */
const KEY_SEGMENTS = 2;

/**
 * 405 (JSON, with `Allow`) when the path exists under another method; registered before the routes, it reads the
 * router's table (re-indexed whenever a route was added since), so routes added later are covered without a second
 * list to keep in sync. Every request passes here: matching it against every route of the table cost more than any
 * other middleware (#30), so only the routes that can match its path are tried (routeIndex).
 */
export function methodNotAllowed(app: () => Application) {
  let indexed: { size: number; candidates: (path: string) => RouteLayer[] } | undefined;
  return (req: Request, res: Response, next: NextFunction): void => {
    const stack = (app() as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? [];
    if (indexed?.size !== stack.length) indexed = { size: stack.length, candidates: routeIndex(stack) };
    const matching = indexed.candidates(req.path).filter((l) => l.match(req.path));
    if (matching.length === 0) return next();
    const allowed = new Set<string>();
    for (const layer of matching) for (const [method, on] of Object.entries(layer.route!.methods)) if (on) allowed.add(method.toUpperCase());
    if (allowed.has('GET')) allowed.add('HEAD');
    if (allowed.has(req.method)) return next();
    const body: ErrorEnvelope = { status: 405, code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed on this path` };
    res.status(405).setHeader('Allow', [...allowed].sort().join(', '));
    res.json(body);
  };
}

/**
 * The route layers that may match a path, in table order: a route template with plain segments only (`:name` takes
 * exactly one segment, as the router reads it) can match a path only with as many segments and the same leading ones,
 * compared as sent (the router matches the still-encoded path, case-sensitively). A template with anything else
 * (a wildcard, an optional or a parameter in a leading segment) is a candidate for every path.
 */
export function routeIndex(stack: readonly RouteLayer[]): (path: string) => RouteLayer[] {
  const buckets = new Map<string, RouteLayer[]>();
  const always: RouteLayer[] = [];
  const keyOf = (segments: readonly string[]) => `${segments.length} ${segments.slice(0, KEY_SEGMENTS + 1).join('/')}`;
  stack.forEach((layer) => {
    if (!layer.route) return;
    const template = layer.route.path;
    const segments = typeof template === 'string' ? template.split('/') : undefined;
    const plain = segments?.every((s, i) => (i <= KEY_SEGMENTS ? /^[A-Za-z0-9._~-]*$/.test(s) : /^(:[A-Za-z_$][A-Za-z0-9_$]*|[A-Za-z0-9._~-]+)$/.test(s)));
    if (!segments || !plain) return void always.push(layer);
    const key = keyOf(segments);
    buckets.set(key, [...(buckets.get(key) ?? []), layer]);
  });
  const order = new Map(stack.map((layer, i) => [layer, i]));
  return (path) => {
    const bucket = buckets.get(keyOf(path.split('/'))) ?? [];
    return always.length === 0 ? bucket : [...bucket, ...always].sort((a, b) => order.get(a)! - order.get(b)!);
  };
}
