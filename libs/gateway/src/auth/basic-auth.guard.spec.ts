import 'reflect-metadata';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AgentPrincipal, AgentsRpc, ApiError, IdentityRpc, OPERATIONS, RpcContract, VerifiedCredential } from '@payments/contracts';
import type { ServiceClient } from '../rpc/service-client';
import { inRouteOrder } from '../routing/operation-routes';
import { AuthenticatedRequest, BasicAuthGuard, RequireAuth, RequirePermission, RouteAuth, SandboxOnly } from './basic-auth.guard';
import { CredentialCache } from './credential-cache';
import { RateLimiter } from './rate-limiter';

const TOKEN_A = `agt_${'a'.repeat(43)}`;
const TOKEN_B = `agt_${'b'.repeat(43)}`;
const AGENT_A: AgentPrincipal = { agentId: 'Agent:a', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:a' };
const AGENT_B: AgentPrincipal = { agentId: 'Agent:b', platformId: 'Platform:1', mode: 'PRODUCTION', customerId: 'Customer:b' };
const PLATFORM: VerifiedCredential = { clientId: 'client-1', platformId: 'Platform:1', mode: 'SANDBOX', permissions: ['VIEW'] };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A ServiceClient double: answers by pattern, records every call. */
function fakeClient(answers: Record<string, (payload: any) => unknown>) {
  const calls: { pattern: string; payload: unknown }[] = [];
  const client = {
    call: async (contract: RpcContract<unknown, unknown>, payload: unknown) => {
      calls.push({ pattern: contract.pattern, payload });
      const answer = answers[contract.pattern];
      if (!answer) throw new Error(`unexpected call ${contract.pattern}`);
      return answer(payload);
    },
  };
  return { client: client as unknown as ServiceClient, calls };
}

describe('BasicAuthGuard: the caller by the route declared auth', () => {
  let tokens: Map<string, AgentPrincipal>;
  let identity: ReturnType<typeof fakeClient>;
  let agents: ReturnType<typeof fakeClient>;
  let guard: BasicAuthGuard;

  beforeEach(() => {
    tokens = new Map([[TOKEN_A, AGENT_A], [TOKEN_B, AGENT_B]]);
    identity = fakeClient({
      [IdentityRpc.verifyCredential.pattern]: ({ clientId, clientSecret }) => {
        if (clientId === PLATFORM.clientId && clientSecret === 'secret') return PLATFORM;
        throw new ApiError('UNAUTHORIZED', 'invalid credentials');
      },
    });
    agents = fakeClient({
      [AgentsRpc.authenticate.pattern]: ({ accessToken }) => {
        const principal = tokens.get(accessToken);
        if (!principal) throw new ApiError('UNAUTHORIZED', 'the access token is not valid');
        return principal;
      },
    });
    guard = new BasicAuthGuard(identity.client, agents.client, new CredentialCache(), new RateLimiter(1, 3), new Reflector());
  });

  /** A route handler with the metadata operation-routes.ts puts on it, and a request to it. */
  const run = async (auth: RouteAuth, headers: Record<string, string> = {}, path = '/v/agents/me') => {
    const handler = function handle() {};
    RequirePermission('MANAGE')({}, 'handle', { value: handler });
    RequireAuth(auth)({}, 'handle', { value: handler });
    const request = { headers, path, ip: '203.0.113.7', socket: {} } as unknown as AuthenticatedRequest;
    const context = { switchToHttp: () => ({ getRequest: () => request }), getHandler: () => handler } as unknown as ExecutionContext;
    try {
      return { allowed: await guard.canActivate(context), request };
    } catch (error) {
      return { error: error as ApiError, request };
    }
  };

  it('agent routes: a bearer token is checked by the agents service on every request (no cache), and the caller carries the agent', async () => {
    for (let i = 0; i < 2; i++) {
      const { allowed, request } = await run('agent', { authorization: `Bearer ${TOKEN_A}`, 'x-request-id': 'req-1' });
      expect(allowed).toBe(true);
      expect(request.caller).toEqual({
        platformId: 'Platform:1',
        mode: 'SANDBOX',
        clientId: 'Agent:a',
        permissions: ['VIEW', 'TRANSACT', 'MANAGE'], // the route wants MANAGE: the agent's policy decides, not the route
        agent: { agentId: 'Agent:a', customerId: 'Customer:a' },
        correlationId: 'req-1',
      });
    }
    expect(agents.calls).toEqual([
      { pattern: 'agents.tokens.authenticate', payload: { accessToken: TOKEN_A } },
      { pattern: 'agents.tokens.authenticate', payload: { accessToken: TOKEN_A } },
    ]);
    tokens.delete(TOKEN_A); // paused or deleted: the very next request is refused
    const { error, request } = await run('agent', { authorization: `Bearer ${TOKEN_A}` });
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(request.authChallenge).toBe('Bearer');
    expect(identity.calls).toEqual([]);
  });

  it('agent routes: Basic credentials, no header or a garbled one are 401 without asking anyone', async () => {
    for (const authorization of [basic(PLATFORM.clientId, 'secret'), undefined, 'Bearer', 'Bearer ', 'Bearer a b', `Bearer ${'x'.repeat(600)}`, `Token ${TOKEN_A}`, 'Bearer tok\u00e9n']) {
      const { error, request } = await run('agent', authorization === undefined ? {} : { authorization });
      expect({ authorization, code: error?.code }).toEqual({ authorization, code: 'UNAUTHORIZED' });
      expect(request.authChallenge).toBe('Bearer');
    }
    expect(agents.calls).toEqual([]);
    expect(identity.calls).toEqual([]);
  });

  it('agent routes: an unknown token is 401 and a principal that is not well formed is no principal', async () => {
    expect((await run('agent', { authorization: `Bearer agt_${'z'.repeat(43)}` })).error).toMatchObject({ code: 'UNAUTHORIZED' });
    tokens.set(TOKEN_A, { ...AGENT_A, platformId: '' });
    expect((await run('agent', { authorization: `Bearer ${TOKEN_A}` })).error).toMatchObject({ code: 'UNAUTHORIZED' });
    tokens.set(TOKEN_A, { ...AGENT_A, mode: 'LIVE' as never });
    expect((await run('agent', { authorization: `Bearer ${TOKEN_A}` })).error).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('platform routes: a bearer token is 401 (Basic challenge) and the token goes nowhere', async () => {
    const { error, request } = await run('platform', { authorization: `Bearer ${TOKEN_A}` }, '/v/agents/Agent:a');
    expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(request.authChallenge).toBe('Basic');
    expect(agents.calls).toEqual([]);
    expect(identity.calls).toEqual([]);
    const platform = await run('platform', { authorization: basic(PLATFORM.clientId, 'secret') }, '/v/agents/Agent:a');
    expect(platform.error).toMatchObject({ code: 'FORBIDDEN' }); // the route's MANAGE still applies to platform credentials
  });

  it('rate limits per agent: one agent using up its burst leaves the other alone', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await run('agent', { authorization: `Bearer ${TOKEN_A}` })).error?.code ?? 'ok');
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED']);
    expect((await run('agent', { authorization: `Bearer ${TOKEN_B}` }, '/v/agents/me')).allowed).toBe(true);
  });

  it('credential-less routes: an anonymous caller whatever is sent, rate-limited per client address', async () => {
    const { allowed, request } = await run('none', { authorization: `Bearer ${TOKEN_A}` }, '/v/agents/device-codes/ABCD-EFGH/redeem');
    expect(allowed).toBe(true);
    expect(request.caller).toEqual({ platformId: '', mode: 'SANDBOX', clientId: 'anonymous', permissions: [], correlationId: undefined });
    expect(agents.calls).toEqual([]);
    expect(identity.calls).toEqual([]);
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await run('none', {}, '/v/agents/device-codes/ABCD-EFGH/redeem')).error?.code ?? 'ok');
    expect(codes).toEqual(['ok', 'ok', 'RATE_LIMITED']);
  });
});

describe('BasicAuthGuard: sandbox-only operations', () => {
  const PRODUCTION: VerifiedCredential = { ...PLATFORM, clientId: 'client-prod', mode: 'PRODUCTION', permissions: ['TRANSACT'] };
  const SANDBOX: VerifiedCredential = { ...PLATFORM, permissions: ['TRANSACT'] };
  const identity = fakeClient({ [IdentityRpc.verifyCredential.pattern]: ({ clientId }) => (clientId === PRODUCTION.clientId ? PRODUCTION : SANDBOX) });
  const agents = fakeClient({ [AgentsRpc.authenticate.pattern]: ({ accessToken }) => (accessToken === TOKEN_B ? AGENT_B : AGENT_A) });
  const guard = new BasicAuthGuard(identity.client, agents.client, new CredentialCache(), new RateLimiter(0, 0), new Reflector());

  /** A route marked as operation-routes.ts marks it, requested at `path` (which the decision must not read). */
  const run = async (sandboxOnly: boolean, auth: RouteAuth, authorization: string, path: string) => {
    const handler = function handle() {};
    RequirePermission('TRANSACT')({}, 'handle', { value: handler });
    RequireAuth(auth)({}, 'handle', { value: handler });
    if (sandboxOnly) SandboxOnly()({}, 'handle', { value: handler });
    const request = { headers: { authorization }, path, ip: '203.0.113.7', socket: {} } as unknown as AuthenticatedRequest;
    const context = { switchToHttp: () => ({ getRequest: () => request }), getHandler: () => handler } as unknown as ExecutionContext;
    return guard.canActivate(context).then(
      () => 'allowed',
      (error: ApiError) => `${error.status} ${error.code}: ${error.message}`,
    );
  };

  it('refuses production credentials and production agents from the declaration, whatever the path says', async () => {
    const refused = '404 NOT_FOUND: no such resource or route';
    expect(await run(true, 'platform', basic('client-prod', 's'), '/v/Sandbox/internal-accounts/x/fund')).toBe(refused);
    expect(await run(true, 'platform', basic('client-prod', 's'), '/v/anything')).toBe(refused);
    expect(await run(true, 'agent', `Bearer ${TOKEN_B}`, '/v/agents/me/whatever')).toBe(refused);
    expect(await run(true, 'platform', basic('client-1', 's'), '/v/sandbox/send')).toBe('allowed');
    expect(await run(true, 'agent', `Bearer ${TOKEN_A}`, '/v/agents/me/whatever')).toBe('allowed');
    // The path alone decides nothing: an operation not declared sandbox-only is served to production under any path.
    expect(await run(false, 'platform', basic('client-prod', 's'), '/v/sandbox/send')).toBe('allowed');
  });
});

describe('route order', () => {
  /** Whether some URL matches both templates (a `{param}` matches any one segment). */
  const overlap = (a: string[], b: string[]) => a.length === b.length && a.every((s, i) => s === b[i] || s.startsWith('{') || b[i].startsWith('{'));

  it('registers a static segment before a parameter in its place: /agents/me, /agents/approvals, /agents/device-codes/... win over /agents/{agentId}', () => {
    const ordered = inRouteOrder(OPERATIONS);
    const shadowed: string[] = [];
    ordered.forEach((first, i) => {
      for (const later of ordered.slice(i + 1)) {
        const [a, b] = [first.path.split('/'), later.path.split('/')];
        if (first.method !== later.method || !overlap(a, b)) continue;
        // `later` is reached only when `first` does not match: it must not be the more specific of the two.
        const laterMoreSpecific = a.findIndex((s, k) => s.startsWith('{') !== b[k].startsWith('{'));
        if (laterMoreSpecific >= 0 && a[laterMoreSpecific].startsWith('{')) shadowed.push(`${later.method} ${later.path} after ${first.path}`);
      }
    });
    expect(shadowed).toEqual([]);
    const position = (method: string, path: string) => ordered.findIndex((op) => op.method === method && op.path === path);
    expect(position('GET', '/agents/me')).toBeLessThan(position('GET', '/agents/{agentId}'));
    expect(position('GET', '/agents/approvals')).toBeLessThan(position('GET', '/agents/{agentId}'));
  });
});
