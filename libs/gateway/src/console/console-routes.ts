import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { ApiError, IdentityRpc, OPERATOR_API_PREFIX } from '@payments/contracts';
import type { HttpErrorFilter } from '../errors/http-error.filter';
import type { ServiceClient } from '../rpc/service-client';
import { GatewayRouteConfig } from '../http/route-config';
import { ConsoleAsset } from './console-assets';
import { ConsolePrincipal, ConsoleSession, ConsoleSessions, csrfTokenMatches } from './console-sessions';
import { CONSOLE_CSP } from './landing-page';

export interface ConsoleRoutesOptions {
  apiVersion: string;
  sessions: ConsoleSessions;
  identity: ServiceClient;
  errors: HttpErrorFilter;
  assets: Map<string, ConsoleAsset>;
  /** PUBLIC_URL: an https one marks the cookie Secure even behind a proxy that does not say X-Forwarded-Proto. */
  publicUrl?: string;
}

/** The cookie holding the session id; `__Host-` (Secure, Path=/, no Domain) whenever the console is reached over TLS. */
const COOKIE = 'console_session';
const SECURE_COOKIE = '__Host-console_session';
const CSRF_HEADER = 'x-csrf-token';
/** Request headers a console call sends on to the API; nothing else (no cookie, no host) reaches it. */
const FORWARDED_REQUEST = ['content-type', 'content-encoding', 'idempotency-key', 'accept', 'x-request-id'];
/** Response headers the API's answer keeps on its way back to the browser. */
const FORWARDED_RESPONSE = ['content-type', 'content-disposition', 'retry-after', 'allow', 'x-request-id'];
/**
 * The largest body a console call sends on, as sent (still compressed, if it is): above a document upload's limit;
 * the route it reaches decodes it and applies its own limits.
 */
const PROXY_BODY: GatewayRouteConfig = { forwarded: { maxBytes: 16 * 1024 * 1024 } };
/** Sign-in is anonymous: its body (an audience and a credential) is small, and no more is read. */
const SIGN_IN_BODY: GatewayRouteConfig = { jsonLimit: '4kb' };
const SESSION = Symbol('console session');
type WithSession = FastifyRequest & { [SESSION]?: ConsoleSession };

/**
 * The console's server side (ADR 0010): its static files, sign-in sessions, and `/console/api/*`, which sends each
 * call on, in process, to the platform API (`/<version>/*`) or the operator API (`/operator/v1/*`) as the credential
 * the session holds. Every call therefore passes the same request checks, guard, roles, validation, idempotency and
 * tenancy as any API client's; the console adds only the session and its CSRF check.
 */
export function mountConsole(server: FastifyInstance, options: ConsoleRoutesOptions): void {
  const { sessions, errors } = options;
  // No WWW-Authenticate on the console's 401s: the session is a cookie, and a Basic challenge would make a browser prompt.
  const fail = (request: FastifyRequest, reply: FastifyReply, error: unknown) => errors.reply(error, Object.assign(request, { authChallenge: 'none' as const }), reply);

  server.get('/console', (request, reply) => sendAsset(reply, options.assets, 'index.html'));
  server.get('/console/*', (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    if (options.assets.has(path)) return sendAsset(reply, options.assets, path);
    // A view's own URL (/console/customers/…) is the app's to draw; a missing file is a missing file.
    if (path.startsWith('assets/') || /\.[a-z0-9]+$/i.test(path)) return fail(request, reply, new ApiError('NOT_FOUND', 'no such console file'));
    return sendAsset(reply, options.assets, 'index.html');
  });

  server.post('/console/session', { config: SIGN_IN_BODY }, async (request, reply) => {
    try {
      const { audience, clientId, clientSecret } = signInBody(request.body);
      const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      // Asked through the API itself, so failed attempts count and are throttled as any client's are.
      const probe = audience === 'operator' ? `${OPERATOR_API_PREFIX}/me` : `/${options.apiVersion}/config`;
      const answer = await server.inject({ method: 'GET', url: probe, headers: { authorization: basic }, remoteAddress: request.ip });
      if (answer.statusCode !== 200) return relay(reply, answer);
      const principal: ConsolePrincipal =
        audience === 'operator'
          ? { audience, ...operatorOf(answer.json()), clientId }
          : { audience, ...(await platformOf(options.identity, clientId, clientSecret)), clientId };
      const { id, session } = await sessions.create(principal, clientSecret);
      void reply.header('Set-Cookie', cookieFor(request, options.publicUrl, id));
      return reply.code(201).header('Cache-Control', 'no-store').send(sessionView(session, sessions));
    } catch (error) {
      return fail(request, reply, error);
    }
  });

  server.get('/console/session', async (request, reply) => {
    try {
      const session = await required(sessions, request);
      return reply.header('Cache-Control', 'no-store').send(sessionView(session, sessions));
    } catch (error) {
      return fail(request, reply, error);
    }
  });

  server.delete('/console/session', async (request, reply) => {
    try {
      const session = await required(sessions, request);
      checkCsrf(session, request);
      await sessions.end(sessionId(request));
      void reply.header('Set-Cookie', cookieFor(request, options.publicUrl, '', 0));
      return reply.code(204).send();
    } catch (error) {
      return fail(request, reply, error);
    }
  });

  // The path, the session and its CSRF token, from the headers alone, before any body is read (onRequest runs
  // before the body reader): an anonymous or forged call never gets a byte of its body inflated or kept.
  const admit = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      if (proxiedPath(request.url) === undefined) throw new ApiError('NOT_FOUND', 'no such resource or route');
      const session = await required(sessions, request);
      if (request.method !== 'GET' && request.method !== 'HEAD') checkCsrf(session, request);
      (request as WithSession)[SESSION] = session;
    } catch (error) {
      fail(request, reply, error);
      return reply;
    }
  };
  const proxy = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const session = (request as WithSession)[SESSION]!;
      const base = session.principal.audience === 'operator' ? OPERATOR_API_PREFIX : `/${options.apiVersion}`;
      const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(`${session.clientId}:${session.secret}`).toString('base64')}` };
      for (const name of FORWARDED_REQUEST) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const body = Buffer.isBuffer(request.body) && request.body.length > 0 ? request.body : undefined;
      const answer = await server.inject({ method: request.method as 'GET', url: `${base}/${proxiedPath(request.url)}`, headers, payload: body, remoteAddress: request.ip });
      return relay(reply, answer);
    } catch (error) {
      return fail(request, reply, error);
    }
  };
  server.route({ method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], url: '/console/api/*', config: PROXY_BODY, onRequest: admit, handler: proxy });
}

const PROXY_PREFIX = '/console/api/';
/** What a segment may hold once decoded: anything but a separator the API or inject would read as one. */
const SEPARATOR_OR_DOTS = /[/\\]|^\.{1,2}$/;

/**
 * The rest of a /console/api/ URL (query kept) as the path under the API it is sent to, or undefined when it is not
 * plain `/`-separated segments: a `\` (inject, like a browser, reads it as `/`), a `.` or `..` segment, an encoded
 * `/` or `\`, an empty segment (`//`, a trailing `/`), raw or percent-encoded. inject resolves what it is given, so
 * only a path that means the same to every reader is handed to it (console.e2e and auth-before-body.e2e).
 */
export function proxiedPath(url: string): string | undefined {
  if (!url.startsWith(PROXY_PREFIX)) return undefined;
  const rest = url.slice(PROXY_PREFIX.length);
  const at = rest.indexOf('?');
  const path = at < 0 ? rest : rest.slice(0, at);
  if (path.includes('\\')) return undefined;
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
    if (segment === '' || SEPARATOR_OR_DOTS.test(decoded)) return undefined;
  }
  return rest;
}

function sendAsset(reply: FastifyReply, assets: Map<string, ConsoleAsset>, path: string): FastifyReply {
  const asset = assets.get(path);
  if (!asset) {
    return reply.code(404).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send('The console is not built on this server: run `npm run build` (it builds apps/console into dist/console).\n');
  }
  return reply
    .headers({
      'Content-Type': asset.type,
      'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    })
    .send(asset.body);
}

/** What the console shows of its session; never the secret. */
function sessionView(session: ConsoleSession, sessions: ConsoleSessions) {
  return { principal: session.principal, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString(), idleTimeoutSeconds: sessions.limits.idleMs / 1000 };
}

function signInBody(body: unknown): { audience: 'platform' | 'operator'; clientId: string; clientSecret: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  const problems: string[] = [];
  if (b.audience !== 'platform' && b.audience !== 'operator') problems.push('audience must be platform or operator');
  for (const field of ['clientId', 'clientSecret'] as const) {
    const value = b[field];
    if (typeof value !== 'string' || value.length === 0 || value.length > 512 || (field === 'clientId' && value.includes(':'))) problems.push(`${field} must be a non-empty string${field === 'clientId' ? ' without ":"' : ''}`);
  }
  if (problems.length > 0) throw new ApiError('INVALID_INPUT', problems.join('; '));
  return { audience: b.audience as 'platform' | 'operator', clientId: b.clientId as string, clientSecret: b.clientSecret as string };
}

function operatorOf(me: { id: string; name: string; role: string }) {
  return { operatorId: me.id, name: me.name, role: me.role };
}

async function platformOf(identity: ServiceClient, clientId: string, clientSecret: string) {
  const credential = await identity.call(IdentityRpc.verifyCredential, { clientId, clientSecret });
  return { platformId: credential.platformId, mode: credential.mode };
}

function sessionId(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const cookies = parseCookies(header);
  return cookies[SECURE_COOKIE] ?? cookies[COOKIE];
}

async function required(sessions: ConsoleSessions, request: FastifyRequest): Promise<ConsoleSession> {
  const session = await sessions.find(sessionId(request));
  if (!session) throw new ApiError('UNAUTHORIZED', 'not signed in to the console, or the session ended: sign in again');
  return session;
}

function checkCsrf(session: ConsoleSession, request: FastifyRequest): void {
  if (!csrfTokenMatches(session, request.headers[CSRF_HEADER])) throw new ApiError('FORBIDDEN', `console writes need the session's ${CSRF_HEADER} header`);
}

function cookieFor(request: FastifyRequest, publicUrl: string | undefined, value: string, maxAge?: number): string {
  const secure = request.protocol === 'https' || !!publicUrl?.startsWith('https:');
  return serializeCookie(secure ? SECURE_COOKIE : COOKIE, value, { httpOnly: true, sameSite: 'strict', secure, path: '/', ...(maxAge === undefined ? {} : { maxAge }) });
}

function relay(reply: FastifyReply, answer: { statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }): FastifyReply {
  for (const name of FORWARDED_RESPONSE) {
    const value = answer.headers[name];
    if (typeof value === 'string') void reply.header(name, value);
  }
  return reply.code(answer.statusCode).header('Cache-Control', 'no-store').send(answer.statusCode === 204 ? undefined : answer.rawPayload);
}
