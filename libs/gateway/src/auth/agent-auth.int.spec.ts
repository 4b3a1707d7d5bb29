import 'reflect-metadata';
import { Controller, INestMicroservice, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, MicroserviceOptions, Payload, Transport } from '@nestjs/microservices';
import { AgentPrincipal, AgentsRpc, ApiError, CallerContext, IdentityRpc, RpcRequest } from '@payments/contracts';
import { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { authenticateRpcWith, RpcErrorFilter } from '@payments/runtime';
import { basicAuth, createTestDatabase, freePort, http, TestDatabase } from '@payments/testing';
import { Gateway, GatewayOptions, startGateway } from '../gateway.server';

const TOKEN_A = `agt_${'A'.repeat(43)}`;
const TOKEN_B = `agt_${'B'.repeat(43)}`;
const REDEEMED_TOKEN = `agt_${'R'.repeat(43)}`;
const AGENT_A: AgentPrincipal = { agentId: 'Agent:0190d1a6-0000-7000-8000-00000000000a', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:a' };
const AGENT_B: AgentPrincipal = { agentId: 'Agent:0190d1a6-0000-7000-8000-00000000000b', platformId: 'Platform:1', mode: 'SANDBOX', customerId: 'Customer:b' };
const PLATFORM = { clientId: 'platform-client', secret: 'platform-secret' };

/** What the fake services saw. */
const seen = { authenticate: 0, verify: 0, calls: [] as { pattern: string; caller?: CallerContext; body?: unknown }[] };
const tokens = new Map<string, AgentPrincipal>();

/** The agents service as the gateway sees it: authenticate, and echoes of the caller and body per operation. */
@Controller()
class FakeAgents {
  @MessagePattern(AgentsRpc.authenticate.pattern)
  authenticate(@Payload() payload: { accessToken: string }): AgentPrincipal {
    seen.authenticate++;
    const principal = tokens.get(payload.accessToken);
    if (!principal) throw new ApiError('UNAUTHORIZED', 'the access token is not valid');
    return principal;
  }

  @MessagePattern(AgentsRpc.ping.pattern)
  ping(): string {
    return 'pong';
  }

  @MessagePattern(AgentsRpc.me.pattern)
  me(@Payload() request: RpcRequest) {
    return this.echo(AgentsRpc.me.pattern, request);
  }

  @MessagePattern(AgentsRpc.get.pattern)
  get(@Payload() request: RpcRequest) {
    return this.echo(AgentsRpc.get.pattern, request);
  }

  @MessagePattern(AgentsRpc.listApprovals.pattern)
  listApprovals(@Payload() request: RpcRequest) {
    return this.echo(AgentsRpc.listApprovals.pattern, request);
  }

  @MessagePattern(AgentsRpc.deviceCodeStatus.pattern)
  deviceCodeStatus(@Payload() request: RpcRequest) {
    return this.echo(AgentsRpc.deviceCodeStatus.pattern, request);
  }

  @MessagePattern(AgentsRpc.redeemDeviceCode.pattern)
  redeem(@Payload() request: RpcRequest) {
    return { ...this.echo(AgentsRpc.redeemDeviceCode.pattern, request), accessToken: REDEEMED_TOKEN };
  }

  @MessagePattern(AgentsRpc.transferIn.pattern)
  transferIn(@Payload() request: RpcRequest) {
    return this.echo(AgentsRpc.transferIn.pattern, request);
  }

  private echo(pattern: string, request: RpcRequest) {
    seen.calls.push({ pattern, caller: request.caller, body: request.body });
    return { pattern, caller: request.caller, body: request.body, n: seen.calls.length };
  }
}

@Controller()
class FakeIdentity {
  @MessagePattern(IdentityRpc.verifyCredential.pattern)
  verify(@Payload() payload: { clientId: string; clientSecret: string }) {
    seen.verify++;
    if (payload.clientId !== PLATFORM.clientId || payload.clientSecret !== PLATFORM.secret) throw new ApiError('UNAUTHORIZED', 'invalid credentials');
    return { clientId: PLATFORM.clientId, platformId: 'Platform:1', mode: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] };
  }

  @MessagePattern(IdentityRpc.ping.pattern)
  ping(): string {
    return 'pong';
  }
}

@Module({ controllers: [FakeAgents] })
class FakeAgentsModule {}

@Module({ controllers: [FakeIdentity] })
class FakeIdentityModule {}

async function fakeService(module: Type, port: number): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(module, { transport: Transport.TCP, options: { host: '127.0.0.1', port }, logger: false });
  app.useGlobalFilters(new RpcErrorFilter());
  await app.listen();
  return app;
}

const bearer = (token: string) => `Bearer ${token}`;
const transferIn = { source: { accountId: 'ExternalAccount:1' }, destination: { accountId: 'InternalAccount:1' }, amount: 100 };

/**
 * The gateway's three kinds of routes over real HTTP, against a fake identity and a fake agents service on TCP (the
 * other services are absent: nothing here reaches them) and a real PostgreSQL for idempotency records.
 */
describe('gateway: agent bearer tokens and credential-less routes (real HTTP)', () => {
  let database: TestDatabase;
  const services: INestMicroservice[] = [];
  const gateways: Gateway[] = [];
  const logs: string[] = [];
  let base: Omit<GatewayOptions, 'port'>;
  let gateway: Gateway;
  const platformAuth = basicAuth(PLATFORM.clientId, PLATFORM.secret);

  beforeAll(async () => {
    authenticateRpcWith(randomBytes(32)); // the gateway signs its RPC (the fake services do not check)
    database = await createTestDatabase('pp_gw_agents');
    const [identityPort, agentsPort, absent] = [await freePort(), await freePort(), await freePort()];
    services.push(await fakeService(FakeIdentityModule, identityPort), await fakeService(FakeAgentsModule, agentsPort));
    const nowhere = { host: '127.0.0.1', port: absent };
    base = {
      identity: { host: '127.0.0.1', port: identityPort },
      agents: { host: '127.0.0.1', port: agentsPort },
      accounts: nowhere,
      quoting: nowhere,
      payments: nowhere,
      webhooks: nowhere,
      walletAuth: nowhere,
      cards: nowhere,
      rpcTimeoutMs: 2_000,
      databaseUrl: database.url,
      secretHashKey: Buffer.alloc(32, 7),
      rateLimit: { perSecond: 0, burst: 0 },
      log: (message, error) => logs.push(`${message} ${error instanceof Error ? `${error.message} ${error.stack}` : JSON.stringify(error ?? '')}`),
    };
    gateway = await startGateway({ ...base, port: 0, ops: { host: '127.0.0.1', port: 0 } });
    gateways.push(gateway);
  });

  beforeEach(() => {
    tokens.clear();
    tokens.set(TOKEN_A, AGENT_A);
    tokens.set(TOKEN_B, AGENT_B);
    seen.calls.length = 0;
    seen.authenticate = 0;
  });

  afterAll(async () => {
    for (const g of gateways) await g.stop();
    for (const s of services) await s.close();
    await database?.drop();
  });

  it('GET /agents/me with a bearer token: the agents service checks it on every request and the caller carries the agent', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await http('GET', `${gateway.url}/agents/me`, { auth: bearer(TOKEN_A), headers: { 'x-request-id': 'corr-1' } });
      expect(res.status).toBe(200);
      expect(res.body.pattern).toBe('agents.me.get'); // not agents.agents.get with agentId "me"
      expect(res.body.caller).toEqual({ platformId: 'Platform:1', mode: 'SANDBOX', clientId: AGENT_A.agentId, permissions: ['VIEW', 'TRANSACT', 'MANAGE'], agent: { agentId: AGENT_A.agentId, customerId: 'Customer:a' }, correlationId: 'corr-1' });
    }
    expect(seen.authenticate).toBe(3); // no cache
    tokens.delete(TOKEN_A); // paused or deleted
    const refused = await http('GET', `${gateway.url}/agents/me`, { auth: bearer(TOKEN_A) });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ status: 401, code: 'UNAUTHORIZED', message: expect.any(String) });
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it('agent routes refuse Basic credentials and missing, garbled or unknown tokens with 401 and WWW-Authenticate: Bearer', async () => {
    for (const auth of [platformAuth, undefined, 'Bearer', 'Bearer not a token', `Bearer agt_${'Z'.repeat(43)}`]) {
      const res = await http('GET', `${gateway.url}/agents/me/actions`, auth ? { auth } : {});
      expect({ auth, status: res.status, code: res.body.code }).toEqual({ auth, status: 401, code: 'UNAUTHORIZED' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    }
    expect(seen.calls).toEqual([]);
  });

  it('platform routes refuse a bearer token with 401 and WWW-Authenticate: Basic, and route /agents/approvals and /agents/device-codes/... apart from /agents/{agentId}', async () => {
    const refused = await http('GET', `${gateway.url}/agents/${AGENT_A.agentId}`, { auth: bearer(TOKEN_A) });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic\b/);
    expect(seen.authenticate).toBe(0);

    expect((await http('GET', `${gateway.url}/agents/${AGENT_A.agentId}`, { auth: platformAuth })).body).toMatchObject({ pattern: 'agents.agents.get', body: { agentId: AGENT_A.agentId } });
    expect((await http('GET', `${gateway.url}/agents/approvals`, { auth: platformAuth })).body).toMatchObject({ pattern: 'agents.approvals.list' });
    expect((await http('GET', `${gateway.url}/agents/device-codes/ABCD-EFGH/status`, { auth: platformAuth })).body).toMatchObject({ pattern: 'agents.device-codes.status', body: { code: 'ABCD-EFGH' } });
    // Platform credentials on an agent route are refused, not taken for /agents/{agentId}.
    expect((await http('GET', `${gateway.url}/agents/me`, { auth: platformAuth })).status).toBe(401);
  });

  it('POST /agents/device-codes/{code}/redeem needs no credentials: an anonymous caller, and no Idempotency-Key record keeps the token', async () => {
    const res = await http('POST', `${gateway.url}/agents/device-codes/ABCD-EFGH/redeem`, { headers: { 'idempotency-key': 'redeem-1' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pattern: 'agents.device-codes.redeem', body: { code: 'ABCD-EFGH' }, accessToken: REDEEMED_TOKEN });
    expect(res.body.caller).toEqual({ platformId: '', mode: 'SANDBOX', clientId: 'anonymous', permissions: [] });
    const again = await http('POST', `${gateway.url}/agents/device-codes/ABCD-EFGH/redeem`, { headers: { 'idempotency-key': 'redeem-1' } });
    expect(again.headers.get('idempotent-replayed')).toBeNull(); // ran again: the service says what a second redemption is
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT response_body::text AS body FROM gateway.idempotency_keys`);
      expect(rows.map((r) => r.body).join('\n')).not.toContain(REDEEMED_TOKEN);
    } finally {
      await db.end();
    }
  });

  it('Idempotency-Key is per agent: a replay for the same agent, a fresh run for another agent with the same key', async () => {
    const send = (token: string, body: unknown) => http('POST', `${gateway.url}/agents/me/transfer-in`, { auth: bearer(token), body, headers: { 'idempotency-key': 'same-key' } });
    const first = await send(TOKEN_A, transferIn);
    expect(first.status).toBe(201);
    expect(first.body.caller.idempotency).toEqual({ key: 'same-key', requestHash: expect.any(String) }); // the client's key; the caller names the agent
    const replay = await send(TOKEN_A, transferIn);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await send(TOKEN_A, { ...transferIn, amount: 200 })).body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    const other = await send(TOKEN_B, { ...transferIn, amount: 300 });
    expect(other.status).toBe(201);
    expect(other.body.caller.agent.agentId).toBe(AGENT_B.agentId);
    expect(seen.calls.filter((c) => c.pattern === 'agents.me.transfer-in')).toHaveLength(2);
  });

  it('readiness has an agents check; the token reaches neither the metrics nor the log', async () => {
    const root = `http://127.0.0.1:${gateway.ops!.port}`; // the gateway's ops port
    const ready = await http('GET', `${root}/readyz`);
    expect(ready.body.checks).toMatchObject({ identity: 'ok', agents: 'ok' });
    tokens.delete(TOKEN_B);
    await http('GET', `${gateway.url}/agents/me/transactions/${encodeURIComponent(TOKEN_A)}`, { auth: bearer(TOKEN_B) }); // an unknown token, a token-like path
    const metrics = await http<string>('GET', `${root}/metrics`);
    expect(metrics.status).toBe(200);
    for (const token of [TOKEN_A, TOKEN_B, REDEEMED_TOKEN]) {
      expect(metrics.body).not.toContain(token);
      expect(logs.join('\n')).not.toContain(token);
    }
  });

  it('rate limits per agent and, without credentials, per client address', async () => {
    const limited = await startGateway({ ...base, port: 0, rateLimit: { perSecond: 0.01, burst: 2 } });
    gateways.push(limited);
    const me = async (token: string) => (await http('GET', `${limited.url}/agents/me`, { auth: bearer(token) })).status;
    expect([await me(TOKEN_A), await me(TOKEN_A), await me(TOKEN_A)]).toEqual([200, 200, 429]);
    expect(await me(TOKEN_B)).toBe(200); // another agent has its own bucket
    const redeem = async () => http('POST', `${limited.url}/agents/device-codes/ABCD-EFGH/redeem`);
    const answers = [await redeem(), await redeem(), await redeem()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2].body).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(answers[2].headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
