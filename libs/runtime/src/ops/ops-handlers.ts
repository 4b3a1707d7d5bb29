import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { mergeExpositions } from './merge-expositions';
import { ReadinessChecks, runReadinessChecks } from './readiness';

/** A handler for node:http and Express alike (Express requests and responses extend node's). */
export type OpsHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export const OPS_PATHS = { health: '/healthz', readiness: '/readyz', metrics: '/metrics' } as const;

export interface OpsHandlerOptions {
  checks: ReadinessChecks;
  /** Several: the embedded mode's one ops port serves every app's registry, merged by family. */
  registry: Registry | readonly Registry[];
  checkTimeoutMs?: number;
}

/** The three ops endpoints by path: liveness, readiness, Prometheus scrape. */
export function createOpsHandlers(options: OpsHandlerOptions): Record<string, OpsHandler> {
  return {
    [OPS_PATHS.health]: async (_request, response) => sendJson(response, 200, { status: 'ok' }),
    [OPS_PATHS.readiness]: async (_request, response) => {
      const report = await runReadinessChecks(options.checks, options.checkTimeoutMs);
      sendJson(response, report.status === 'ready' ? 200 : 503, report);
    },
    [OPS_PATHS.metrics]: async (_request, response) => {
      const registries = Array.isArray(options.registry) ? options.registry : [options.registry as Registry];
      const body = mergeExpositions(await Promise.all(registries.map((r) => r.metrics())));
      response.writeHead(200, { 'content-type': registries[0].contentType, 'cache-control': 'no-store' });
      response.end(body);
    },
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store', // a cached "ready" would hide an outage from the probe
  });
  response.end(text);
}
