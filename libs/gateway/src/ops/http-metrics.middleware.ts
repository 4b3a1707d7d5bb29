import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { GatewayMetrics } from './gateway-metrics';

export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every request and labels it with the route template Express matched (`/2025-10-13/config`), never the
 * raw URL, so ids in paths and scanners' random URLs cannot grow the series without bound. Requests no route
 * took (404s, bodies rejected by the parser) share `unmatched`. Must be mounted before everything else.
 */
export function httpMetricsMiddleware(metrics: GatewayMetrics): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // 'finish' = the answer was fully handed to the OS; requests the client aborted first are not counted.
    response.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.recordRequest(request.method, routeTemplateOf(request), response.statusCode, seconds);
    });
    next();
  };
}

function routeTemplateOf(request: Request): string {
  const path: unknown = request.route?.path;
  return typeof path === 'string' ? `${request.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}
