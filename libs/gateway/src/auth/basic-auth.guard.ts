import { CanActivate, ExecutionContext, Injectable, Optional, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest as Request } from 'fastify';
import { AgentPrincipal, AgentsRpc, ApiError, CallerContext, IdentityRpc, isOperatorRole, operatorCaller, OperatorPrincipal, OperatorRole, OperatorRpc, Permission, PERMISSIONS, refuseOutsideSandbox, roleIncludes, VerifiedCredential } from '@payments/contracts';
import { ServiceClient } from '../rpc/service-client';
import { CredentialCache } from './credential-cache';
import { basicClientId, FailedAuthThrottle, sourceAddress } from './failed-auth-throttle';
import { RateLimiter } from './rate-limiter';

const PERMISSION_KEY = 'requiredPermission';
const AUTH_KEY = 'operationAuth';
const SANDBOX_ONLY_KEY = 'sandboxOnly';
const OPERATOR_ROLE_KEY = 'operatorRole';

/** The permission a route needs (VIEW for reads, TRANSACT to move money, MANAGE for config and tokens). */
export const RequirePermission = (permission: Permission) => SetMetadata(PERMISSION_KEY, permission);

/** Who may call a route: platform credentials (HTTP Basic), an agent's bearer access token, an operator's credentials (HTTP Basic), or anyone. */
export type RouteAuth = 'platform' | 'agent' | 'operator' | 'none';
export const RequireAuth = (auth: RouteAuth) => SetMetadata(AUTH_KEY, auth);

/** The least operator role an operator API route needs (VIEWER reads, REVIEWER decides, ADMIN configures). */
export const RequireOperatorRole = (role: OperatorRole) => SetMetadata(OPERATOR_ROLE_KEY, role);

/** The route's operation is declared `sandboxOnly`: any caller but a sandbox one gets 404, as for an unknown route. */
export const SandboxOnly = () => SetMetadata(SANDBOX_ONLY_KEY, true);

/** The scheme a 401 names in `WWW-Authenticate` (HttpErrorFilter): Bearer on agent routes, else Basic. */
/** The scheme a 401 names in WWW-Authenticate; `none` on the console's session routes (a cookie, and a Basic challenge would make a browser prompt). */
export type AuthChallenge = 'Basic' | 'Bearer' | 'none';

export type AuthenticatedRequest = Request & { caller: CallerContext; authChallenge?: AuthChallenge };

/** The caller of a route that needs no credentials (the path holds the proof, e.g. a device code): no platform, no permission. */
export const ANONYMOUS_CALLER: CallerContext = Object.freeze({ platformId: '', mode: 'SANDBOX', clientId: 'anonymous', permissions: Object.freeze([]) as readonly Permission[] });

/** RFC 6750 `b64token`; longer than any token this API issues is refused without asking the agents service. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]{1,512}=*) *$/i;

/**
 * The one guard of every declared route; it resolves the caller that scopes everything after, by the route's `auth`:
 * - platform (the default): HTTP Basic `<clientId>:<clientSecret>` (a check cached 60 s, CredentialCache), then the
 *   route's permission; rate-limited per client id; failed attempts throttled per client id and address (429).
 * - agent (Agent Operations): only `Authorization: Bearer <access token>`, checked by the agents service on every
 *   request (no cache: a paused or deleted agent's token stops at once on every gateway). The caller carries the
 *   agent and every permission: its policy decides in the agents service, not the route's permission. Rate-limited
 *   per agent. Basic credentials here, like a bearer token on a platform route, are 401.
 * - operator (the operator API, /operator/v1): HTTP Basic with an operator's credentials, asked of identity on every
 *   request (no cache: a removed operator stops at once; operator traffic is small), then the route's role; failed
 *   attempts throttled as platform ones are. Platform credentials here, like operator credentials on a platform route,
 *   are 401: each kind is looked up only where it belongs.
 * - none: no credentials (a device code redemption); an anonymous caller, rate-limited per client address.
 * The token is never logged nor used as a label: only the agent id it resolves to is kept.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly identity: ServiceClient,
    private readonly agents: ServiceClient,
    private readonly cache: CredentialCache,
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
    @Optional() private readonly failedAuth: FailedAuthThrottle = new FailedAuthThrottle(),
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const auth = this.reflector.get<RouteAuth | undefined>(AUTH_KEY, context.getHandler()) ?? 'platform';
    const correlationId = String(request.headers['x-request-id'] ?? '') || undefined;
    if (auth === 'none') {
      // Anyone may call it, so the client's address is the only thing to count: codes cannot be tried fast.
      this.throttle(`ip:${sourceAddress(request)}`, 'this client');
      request.caller = { ...ANONYMOUS_CALLER, correlationId };
      return true;
    }
    if (auth === 'agent') {
      request.authChallenge = 'Bearer';
      const agent = await this.authenticateAgent(request.headers.authorization);
      this.refuseOutsideSandbox(context, agent.mode);
      this.throttle(`agent:${agent.agentId}`, 'this agent'); // a client id has no ':' (it ends at the first one)
      request.caller = {
        platformId: agent.platformId,
        mode: agent.mode,
        clientId: agent.agentId,
        permissions: PERMISSIONS,
        agent: { agentId: agent.agentId, customerId: agent.customerId },
        correlationId,
      };
      return true;
    }
    request.authChallenge = 'Basic';
    if (auth === 'operator') {
      const header = request.headers.authorization;
      const operator = await this.failedAuth.attempt(basicClientId(header), sourceAddress(request), () => this.authenticateOperator(header));
      this.throttle(`operator:${operator.operatorId}`, 'this operator');
      const needed = this.reflector.get<OperatorRole | undefined>(OPERATOR_ROLE_KEY, context.getHandler()) ?? 'ADMIN';
      if (!roleIncludes(operator.role, needed)) throw new ApiError('FORBIDDEN', `this operation needs the ${needed} operator role; this operator is ${operator.role}`);
      request.caller = operatorCaller(operator, correlationId);
      return true;
    }
    // Held back before any lookup once this client id or address has failed too often (failed-auth-throttle.ts).
    const header = request.headers.authorization;
    const credential = await this.failedAuth.attempt(basicClientId(header), sourceAddress(request), () => this.authenticate(header));
    this.refuseOutsideSandbox(context, credential.mode);
    this.throttle(credential.clientId, 'this credential');
    const required = this.reflector.get<Permission | undefined>(PERMISSION_KEY, context.getHandler());
    if (required && !credential.permissions.includes(required)) {
      throw new ApiError('FORBIDDEN', `this credential lacks the ${required} permission`);
    }
    request.caller = { ...credential, correlationId };
    return true;
  }

  /**
   * Sandbox-only operations do not exist for production credentials: decided from the operation's declaration that
   * the router matched, never from the path (which a router and a pattern can read differently).
   */
  private refuseOutsideSandbox(context: ExecutionContext, mode: CallerContext['mode']): void {
    if (this.reflector.get<boolean | undefined>(SANDBOX_ONLY_KEY, context.getHandler())) refuseOutsideSandbox(mode);
  }

  private throttle(key: string, who: string): void {
    const retryAfterSeconds = this.limiter.take(key);
    if (retryAfterSeconds > 0) throw new ApiError('RATE_LIMITED', `too many requests for ${who}`, { retryAfterSeconds });
  }

  private async authenticate(header: string | undefined): Promise<VerifiedCredential> {
    const { clientId, secret } = basicCredentials(header);
    const key = CredentialCache.keyOf(clientId, secret);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const credential = await this.identity.call(IdentityRpc.verifyCredential, { clientId, clientSecret: secret });
    this.cache.set(key, credential);
    return credential;
  }

  /** Asked of identity every time; anything but a well-formed operator is no operator. */
  private async authenticateOperator(header: string | undefined): Promise<OperatorPrincipal> {
    const { clientId, secret } = basicCredentials(header);
    const principal = await this.identity.call(OperatorRpc.verifyCredential, { clientId, clientSecret: secret });
    const wellFormed = !!principal && typeof principal.operatorId === 'string' && principal.operatorId.length > 0 && typeof principal.name === 'string' && isOperatorRole(principal.role);
    if (!wellFormed) throw new ApiError('UNAUTHORIZED', 'invalid client credentials');
    return { operatorId: principal.operatorId, name: principal.name, role: principal.role };
  }

  /** Asked of the agents service every time: its answer (or its 401) is the truth of this moment. */
  private async authenticateAgent(header: string | undefined): Promise<AgentPrincipal> {
    if (header !== undefined && /^Basic\b/i.test(header)) {
      throw new ApiError('UNAUTHORIZED', "Agent Operations take an agent's bearer access token, not HTTP Basic credentials");
    }
    const match = BEARER.exec(header ?? '');
    if (!match) throw new ApiError('UNAUTHORIZED', "an agent's bearer access token is required (Authorization: Bearer <token>)");
    const principal = await this.agents.call(AgentsRpc.authenticate, { accessToken: match[1] });
    // Anything but a well-formed principal is no principal: never run an operation with a half-built caller.
    const wellFormed =
      !!principal &&
      [principal.agentId, principal.platformId, principal.customerId].every((value) => typeof value === 'string' && value.length > 0) &&
      (principal.mode === 'SANDBOX' || principal.mode === 'PRODUCTION');
    if (!wellFormed) throw new ApiError('UNAUTHORIZED', 'the access token is not valid');
    return principal;
  }
}

/** `Authorization: Basic <base64 clientId:secret>`, or 401 (a bearer token gets a message saying where it belongs). */
function basicCredentials(header: string | undefined): { clientId: string; secret: string } {
  if (header !== undefined && BEARER.test(header)) {
    throw new ApiError('UNAUTHORIZED', 'an agent access token is accepted only on Agent Operations (/agents/me/...): this operation needs HTTP Basic credentials');
  }
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new ApiError('UNAUTHORIZED', 'HTTP Basic credentials are required');
  return { clientId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
