import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { createAppRegistry } from './app-registry';
import { createOpsHandlers, OpsHandler, sendJson } from './ops-handlers';
import { ReadinessChecks } from './readiness';

export interface OpsServerOptions {
  /** 0 picks a free port; the real one is on the returned server. */
  port: number;
  host: string;
  /** The `app` label; also names the registry created when none is given. */
  app: string;
  checks: ReadinessChecks;
  /** The app's registry (from createAppRegistry) when the app records its own metrics in it; several: merged. */
  registry?: Registry | readonly Registry[];
  checkTimeoutMs?: number;
}

export interface OpsServer {
  port: number;
  /** The app's registry (the first, when it serves several). */
  registry: Registry;
  stop(): Promise<void>;
}

/**
 * /healthz, /readyz and /metrics on their own port, on plain node:http: services that only speak RPC have no
 * HTTP stack to hang them on, and probes must keep answering whatever state Nest is in.
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const registry = options.registry ?? createAppRegistry(options.app);
  const handlers = createOpsHandlers({ checks: options.checks, registry, checkTimeoutMs: options.checkTimeoutMs });
  const server = createServer((request, response) => void route(handlers, request, response));
  // Longer than scrapers' and HTTP clients' idle timeouts (undici 4 s), so the client is the one to drop an idle
  // connection: with node's 5 s the server could close one a client had just sent a request on (ECONNRESET), as
  // happens whenever this process's event loop was busy past both timeouts. close() drops idle connections itself.
  server.keepAliveTimeout = 65_000;
  await listen(server, options.port, options.host);
  return {
    port: (server.address() as { port: number }).port,
    registry: Array.isArray(registry) ? registry[0] : (registry as Registry),
    stop: () => close(server),
  };
}

async function route(handlers: Record<string, OpsHandler>, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '/').split('?')[0];
  const handler = handlers[path];
  if (!handler) return sendJson(response, 404, { status: 404, code: 'NOT_FOUND', message: 'no such route' });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return sendJson(response, 405, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'only GET is served here' });
  }
  try {
    await handler(request, response);
  } catch {
    // e.g. a metric collector failed: answer, but leak nothing about it to an unauthenticated caller
    if (!response.headersSent) sendJson(response, 500, { status: 500, code: 'INTERNAL_ERROR', message: 'an unexpected error occurred' });
    else response.destroy();
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    // Scrapers and probes keep connections alive; without this, close() waits for their idle timeout.
    server.closeAllConnections();
  });
}
