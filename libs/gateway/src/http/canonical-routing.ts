import express, { Express, NextFunction, Request, Response } from 'express';
import { ErrorEnvelope } from '@payments/contracts';

/**
 * The gateway's Express application, routing one spelling of each path: case-sensitive (`/Sandbox/send` is not
 * `/sandbox/send`) and strict (`/sandbox/send/` is not either). Express routes case-insensitively and ignores a
 * trailing slash by default, and anything else that reads the path (a guard, a metrics label, a redaction) could
 * then disagree with the router on which operation a request is. The router reads these settings once, when it is
 * created, so they are set before Nest's adapter first touches it.
 */
export function canonicalExpress(): Express {
  const app = express();
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  return app;
}

/**
 * Why `rawPath` (the path of the request target as sent, still percent-encoded) is not the one spelling a route is
 * served under, or undefined: an empty segment (`//`, which a proxy may merge), a dot segment (`.`, `..`, also as
 * `%2e`, which clients and proxies resolve and the router does not), or a trailing slash. Pure, for the middleware.
 */
export function nonCanonicalPath(rawPath: string): string | undefined {
  if (rawPath === '/') return undefined;
  const segments = rawPath.split('/').slice(1);
  if (segments[segments.length - 1] === '') return 'a trailing slash';
  if (segments.some((segment) => segment === '')) return 'an empty path segment';
  if (segments.some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'a dot segment';
  return undefined;
}

/**
 * 404 NOT_FOUND, as for any unknown route, for a path that is not spelled canonically (nonCanonicalPath): such a path
 * names no operation, so no operation's checks are ever reached through a spelling that something else reads
 * differently. Mounted before everything that reads the path.
 */
export function refuseNonCanonicalPath(req: Request, res: Response, next: NextFunction): void {
  // req.path is the pathname the router matches (parseurl: still encoded, dot segments kept, absolute-form accepted).
  if (nonCanonicalPath(req.path) === undefined) return next();
  const body: ErrorEnvelope = { status: 404, code: 'NOT_FOUND', message: 'no such resource or route' };
  res.status(404).json(body);
}
