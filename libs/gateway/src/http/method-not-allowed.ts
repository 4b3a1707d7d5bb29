import type { Application, NextFunction, Request, Response } from 'express';
import { ErrorEnvelope } from '@payments/contracts';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): boolean;
}

/**
 * 405 (JSON, with `Allow`) when the path exists under another method; registered before the routes, it reads the
 * router's table on each miss, so routes added later are covered without a second list to keep in sync.
 */
export function methodNotAllowed(app: () => Application) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const layers = ((app() as unknown as { router?: { stack: RouteLayer[] } }).router?.stack ?? []).filter((l) => l.route);
    const matching = layers.filter((l) => l.match(req.path));
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
