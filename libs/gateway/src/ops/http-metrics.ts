import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REFUSED } from '../http/gateway-http';
import { GatewayMetrics } from './gateway-metrics';

export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Times every request and labels it with the route template the router matched (`/2025-10-13/config`), never the
 * raw URL, so ids in paths and scanners' random URLs cannot grow the series without bound. Requests no route took
 * (404s, and those the request checks refused before their route ran) share `unmatched`. Recorded once the answer
 * was handed to the OS; requests the client aborted first are not counted.
 */
export function recordHttpMetrics(server: FastifyInstance, metrics: GatewayMetrics): void {
  server.addHook('onResponse', (request, reply, done) => {
    metrics.recordRequest(request.method, routeTemplateOf(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

function routeTemplateOf(request: FastifyRequest & { [REFUSED]?: boolean }): string {
  const template = request.routeOptions?.url;
  return typeof template === 'string' && !request.is404 && !request[REFUSED] ? template : UNMATCHED_ROUTE;
}
