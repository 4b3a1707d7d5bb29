import type { FastifyRequest } from 'fastify';
import type { ErrorEnvelope } from '@payments/contracts';
import { routeConfigOf } from './route-config';

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*(;|$)/i;

/** Whether a request sends a body at all (a length above 0, or chunks). */
export const hasBody = (headers: FastifyRequest['headers']): boolean => Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;

export const isMultipart = (request: FastifyRequest): boolean => MULTIPART_TYPE.test(request.headers['content-type'] ?? '');

/**
 * 415 for a body that is not JSON, except multipart/form-data on a route that takes files (its route config says so)
 * and any bytes on a route that reads them raw. A multipart body is read as sent, so it may not be compressed.
 */
export function mediaTypeProblem(request: FastifyRequest): ErrorEnvelope | undefined {
  const headers = request.headers;
  if (!hasBody(headers) || JSON_TYPE.test(headers['content-type'] ?? '')) return undefined;
  const config = routeConfigOf(request);
  if (config.rawBody || config.forwarded) return undefined;
  if (config.multipart && isMultipart(request)) {
    const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
    if (encoding === '' || encoding === 'identity') return undefined;
    return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: `Content-Encoding ${headers['content-encoding']} is only supported on JSON bodies` };
  }
  const message = config.multipart ? 'request bodies must be multipart/form-data or application/json' : 'request bodies must be application/json';
  return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message };
}
