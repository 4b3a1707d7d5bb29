import type { FastifyRequest } from 'fastify';

/** What a route says about its body, in its fastify route config (an operation's through Nest's RouteConfig). */
export interface GatewayRouteConfig {
  /** The route takes multipart/form-data: one part `file` of at most maxBytes, and at most maxFields text fields. */
  multipart?: { maxBytes: number; maxFields: number };
  /** The route reads its body as bytes of any type, up to `limit` (a rail bridge's callback, signed over its exact bytes). */
  rawBody?: { limit: string };
  /**
   * The route hands its body on, still encoded, to a route that reads it (the console's proxy): at most maxBytes are
   * read as sent, never decoded here, so the decoded limit is the one of the route it reaches.
   */
  forwarded?: { maxBytes: number };
  /** A tighter limit on this route's decoded JSON body than the gateway's (an anonymous route: the console's sign-in). */
  jsonLimit?: string;
}

/** The matched route's config; `{}` for a request no route took. */
export function routeConfigOf(request: FastifyRequest): GatewayRouteConfig {
  return (request.routeOptions?.config ?? {}) as GatewayRouteConfig;
}

/** The path of the request target as sent (still percent-encoded), without its query. */
export function pathOf(request: { url: string }): string {
  const at = request.url.indexOf('?');
  return at < 0 ? request.url : request.url.slice(0, at);
}
