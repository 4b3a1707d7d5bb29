import type { NextFunction, Request, Response } from 'express';
import { ErrorEnvelope } from '@payments/contracts';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;

/** A request that carries a body must say it is JSON (415 otherwise); the parser would silently ignore it. */
export function jsonOnly(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || JSON_TYPE.test(req.headers['content-type'] ?? '')) return next();
  const body: ErrorEnvelope = { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'request bodies must be application/json' };
  res.status(415).json(body);
}
