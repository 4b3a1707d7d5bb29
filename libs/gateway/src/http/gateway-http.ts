import { trace } from '@opentelemetry/api';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { ErrorEnvelope } from '@payments/contracts';
import { readBody } from './request-body';
import { hasBody } from './json-only';
import { badUrlRefusal, requestRefusal, routeFinder, unsafeBodyRefusal } from './request-checks';

export interface GatewayHttpOptions {
  /** Whose X-Forwarded-For `request.ip` follows (TRUST_PROXY): false trusts none, a number that many hops, a list those addresses. */
  trustProxy?: false | number | string[];
  /** The largest JSON body, decoded (BODY_LIMIT, e.g. `1mb`). */
  bodyLimit?: string;
}

/**
 * Far beyond any id in a path (they are under 100 characters), far below Node's 16 KiB header limit: a longer
 * segment is a 404 rather than a route fastify's default (100) would silently refuse to match.
 */
const PATH_PARAMETER_LENGTH_MAX = 8_192;

/** The methods whose body the router does not read. */
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * The gateway's HTTP server (ADR 0009 decision 14): one spelling of each path (case-sensitive, no trailing slash,
 * no empty or dot segment), every URL and body refused before any route, guard or pipe sees it when it could not be
 * stored or walked safely, 405 with `Allow` for a path served under other methods, and bodies read by one parser
 * (request-body.ts). Routes are added by operation-routes.ts (the declared operations) and by the gateway's pages.
 */
export function gatewayFastify(options: GatewayHttpOptions = {}): FastifyInstance {
  const app: FastifyInstance = Fastify({
    logger: false,
    requestIdHeader: false,
    trustProxy: options.trustProxy ?? false,
    routerOptions: {
      caseSensitive: true,
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: PATH_PARAMETER_LENGTH_MAX,
    },
    // A path parameter whose escapes do not decode: the router gives up before any hook runs.
    frameworkErrors: (error, request, reply) => {
      const refusal = error.code === 'FST_ERR_BAD_URL' ? badUrlRefusal(routeFinder(app), request) : undefined;
      send(reply as FastifyReply, refusal ?? { envelope: { status: 400, code: 'INVALID_INPUT', message: 'the request could not be read' } });
    },
  });
  const routes: ServedRoute[] = [];
  served.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, path: route.url ?? route.path });
  });
  // Errors the hooks and the body reader raise reach the error handler (gateway.server.ts: the error filter).
  const parse = readBody(options.bodyLimit ?? '1mb');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', parse);
  const find = routeFinder(app);
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = requestRefusal(find, request);
    if (refusal) return send(reply, refusal);
    nameServerSpan(request);
    done();
  });
  // preParsing runs after every onRequest hook, the routes' own included: those authenticate (operation-routes.ts,
  // console-routes.ts), so no body is read, here or by the content-type parser, before the caller is known.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!BODYLESS.has(request.method) || !hasBody(request.headers)) return done(null, payload);
    // The router skips a body on GET or HEAD; it is still read and checked like any other (a hostile one is
    // refused, as on every route), then ignored. Only requests that send one pay for it.
    parse(request, request.raw, (error, body) => {
      if (error) return done(error as Error);
      const unsafe = unsafeBodyRefusal(body, request);
      if (unsafe) return send(reply, { envelope: unsafe });
      done(null, payload);
    });
  });
  app.addHook('preValidation', (request, reply, done) => {
    const refusal = unsafeBodyRefusal(request.body, request);
    if (!refusal) return done();
    send(reply, { envelope: refusal });
  });
  return app;
}

export interface ServedRoute {
  method: string;
  /** The router's template, e.g. `/2025-10-13/tokens/:tokenId`. */
  path: string;
}

const served = new WeakMap<FastifyInstance, ServedRoute[]>();

/** Every route a gateway server serves, HEAD included (the route table's coverage checks read it). */
export function servedRoutesOf(app: FastifyInstance): readonly ServedRoute[] {
  return served.get(app) ?? [];
}

export interface Refusal {
  envelope: ErrorEnvelope;
  /** 405's `Allow`. */
  allow?: string;
}

/** Marks a request the checks refused, so metrics label it `unmatched` (no operation ran) whatever route it resembled. */
export const REFUSED = Symbol('refused by the request checks');

/**
 * The request's HTTP server span (instrumentation-http's, active while the request is handled) named after the route
 * template the router matched, `POST /2025-10-13/transfer-out`, with `http.route`: never the path as sent, which holds
 * ids and, on token pages, credentials. Nothing when tracing is off.
 */
function nameServerSpan(request: FastifyRequest): void {
  const template = request.is404 ? undefined : request.routeOptions?.url;
  const span = template === undefined ? undefined : trace.getActiveSpan();
  if (!span) return;
  span.setAttribute('http.route', template!);
  span.updateName(`${request.method} ${template}`);
}

function send(reply: FastifyReply, refusal: Refusal): void {
  (reply.request as FastifyRequest & { [REFUSED]?: boolean })[REFUSED] = true;
  if (refusal.allow) reply.header('Allow', refusal.allow);
  reply.code(refusal.envelope.status).send(refusal.envelope);
}
