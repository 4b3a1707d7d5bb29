import type { NextFunction, Request, Response } from 'express';
import { ErrorEnvelope } from '@payments/contracts';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;
/** File uploads: these routes also take multipart/form-data, parsed by multer in their controller. */
const MULTIPART_ROUTES: readonly { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/[^/]+\/documents\/?$/ },
  { method: 'PUT', path: /^\/[^/]+\/documents\/[^/]+\/?$/ },
  { method: 'POST', path: /^\/[^/]+\/customers\/bulk\/csv\/?$/ },
  // The operator API: a rail's return or status file (importRailFile).
  { method: 'POST', path: /^\/operator\/v1\/rails\/imports\/?$/ },
];

/** A request that carries a body must say it is JSON (415 otherwise); the parser would silently ignore it. */
export function jsonOnly(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  const type = req.headers['content-type'] ?? '';
  if (!hasBody || JSON_TYPE.test(type)) return next();
  const takesFiles = MULTIPART_ROUTES.some((r) => r.method === req.method && r.path.test(req.path));
  if (takesFiles && MULTIPART_TYPE.test(type)) return next();
  const message = takesFiles ? 'request bodies must be multipart/form-data or application/json' : 'request bodies must be application/json';
  const body: ErrorEnvelope = { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message };
  res.status(415).json(body);
}
