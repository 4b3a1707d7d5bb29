import { Reflector } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { DataSource } from 'typeorm';
import { ApiError, OPERATIONS, OPERATOR_API_PREFIX, OPERATOR_OPERATIONS } from '@payments/contracts';
import { asTransactional, runMigrations } from '@payments/eventsourcing';
import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import type { Registry } from 'prom-client';
import { openServiceDatabase, OpsServer, poolOfDataSource, ReadinessChecks, registerConsumerLagMetrics, registerDbPoolMetrics, startOpsServer } from '@payments/runtime';
import { BasicAuthGuard } from './auth/basic-auth.guard';
import { FailedAttemptsInterceptor } from './auth/failed-attempts.interceptor';
import { CredentialCache } from './auth/credential-cache';
import { evictDeletedTokens } from './auth/credential-eviction';
import { DEFAULT_FAILED_AUTH_LIMITS, FailedAuthLimits, FailedAuthThrottle } from './auth/failed-auth-throttle';
import { FailureWindows } from './auth/failure-windows';
import { RateLimiter } from './auth/rate-limiter';
import { mountKycLinkPage } from './kyc-link/kyc-link-page';
import { mountCardRevealPage } from './card-reveal/card-reveal-page';
import { loadConsoleAssets } from './console/console-assets';
import { consoleMigrations } from './console/console.migrations';
import { mountConsole } from './console/console-routes';
import { ConsoleSessions, SessionLimits } from './console/console-sessions';
import { mountLandingPage } from './console/landing-page';
import { HttpErrorFilter } from './errors/http-error.filter';
import { createValidationPipe } from './errors/validation';
import { gatewayFastify } from './http/gateway-http';
import { requireObjectBody } from './http/object-body';
import { gatewayMigrations } from './idempotency/idempotency.migrations';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { mountApiReference } from './openapi/api-reference';
import { GatewayMetrics } from './ops/gateway-metrics';
import { mountGatewayOps } from './ops/gateway-ops';
import { operationIdsByRoute } from './ops/operation-labels';
import { bindOperations, OperationPipeline } from './routing/operation-routes';
import { mountRailCallbacks } from './rails/rail-callbacks';
import { ServiceClient, ServiceEndpoint } from './rpc/service-client';

export const API_VERSION = '2025-10-13';
const DAY_MS = 24 * 60 * 60 * 1000;

export interface GatewayOptions {
  port: number;
  /** Where the API listens (HOST): loopback unless configured; the chart and compose set 0.0.0.0. */
  host?: string;
  /**
   * The ops port (GATEWAY_OPS_PORT): /healthz, /readyz and /metrics, off the public port. listen: false = not served
   * here (the embedded mode serves every app's ops on one port, from `checks` and `registry`).
   */
  ops?: { host: string; port: number; listen?: boolean };
  identity: Omit<ServiceEndpoint, 'name'>;
  accounts: Omit<ServiceEndpoint, 'name'>;
  quoting: Omit<ServiceEndpoint, 'name'>;
  payments: Omit<ServiceEndpoint, 'name'>;
  /** The webhook dispatcher (POST /sandbox/webhooks/test). */
  webhooks: Omit<ServiceEndpoint, 'name'>;
  /** Embedded Wallet Auth and the signed retry. */
  walletAuth: Omit<ServiceEndpoint, 'name'>;
  /** Cards, their reveal page and the sandbox card network. */
  cards: Omit<ServiceEndpoint, 'name'>;
  /** Agents: Agent Management, and every Agent Operations request's bearer token (AgentsRpc.authenticate). */
  agents: Omit<ServiceEndpoint, 'name'>;
  rpcTimeoutMs: number;
  /** The gateway's own schema `gateway` holds idempotency records (no domain state). */
  databaseUrl: string;
  /** When given, token deletions seen on the bus evict cached credentials on this instance. */
  bus?: EventBus;
  /** Requests per second and burst per credential (per agent on Agent Operations, per client address without credentials); 0 disables. */
  rateLimit?: { perSecond: number; burst: number };
  /** Failed HTTP Basic attempts per client id and per source address in a window before 429 (failed-auth-throttle.ts). */
  authFailures?: FailedAuthLimits;
  /** SECRET_HASH_KEY: the console's sessions seal the credential they hold under a key derived from it. */
  secretHashKey: Buffer;
  /** How long a console session lasts unused and at most (defaults: 30 minutes, 12 hours). */
  consoleSessions?: SessionLimits;
  /** TRUST_PROXY: whose X-Forwarded-For request.ip follows (a hop count or addresses); false (the default) trusts none. */
  trustProxy?: false | number | string[];
  idempotencyTtlMs?: number;
  bodyLimit?: string;
  /** The gateway's origin as clients reach it (PUBLIC_URL), for links it hands out; unset: the request's Host. */
  publicUrl?: string;
  log?: (message: string, error?: unknown) => void;
}

interface GatewayParts {
  identity: ServiceClient;
  accounts: ServiceClient;
  quoting: ServiceClient;
  payments: ServiceClient;
  webhooks: ServiceClient;
  walletAuth: ServiceClient;
  cards: ServiceClient;
  agents: ServiceClient;
  cache: CredentialCache;
  limiter: RateLimiter;
  failedAuth: FailedAuthThrottle;
  idempotency: IdempotencyStore;
  errors: HttpErrorFilter;
  publicUrl?: string;
}

export interface Gateway {
  /** The HTTP server (fastify) every route is bound to. */
  server: FastifyInstance;
  url: string;
  /** Its ops server, when it listens on one. */
  ops?: OpsServer;
  /** What its /readyz checks: its database, the bus, every service. */
  checks: ReadinessChecks;
  registry: Registry;
  stop(): Promise<void>;
}

/** The gateway's own schema: Idempotency-Key responses and console sessions; no domain state. */
export const GATEWAY_SCHEMA = 'gateway';

/** Applies the gateway's migrations (at start, and from `admin db:migrate` before a release's pods start). */
export async function migrateGatewaySchema(dataSource: DataSource): Promise<string[]> {
  return runMigrations(asTransactional(dataSource), GATEWAY_SCHEMA, [gatewayMigrations, consoleMigrations]);
}

/** The public REST surface under /<api version>; forwards to services over RPC. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const dataSource: DataSource = await openServiceDatabase({ url: options.databaseUrl, schema: GATEWAY_SCHEMA, poolSizeMax: 5 });
  await migrateGatewaySchema(dataSource);
  const ttlMs = Math.max(options.idempotencyTtlMs ?? DAY_MS, DAY_MS);
  const metrics = new GatewayMetrics('gateway', operationIdsByRoute([{ operations: OPERATIONS, prefix: `/${API_VERSION}` }, { operations: OPERATOR_OPERATIONS, prefix: OPERATOR_API_PREFIX }]));
  registerDbPoolMetrics(metrics.registry, { gateway: () => poolOfDataSource(dataSource) });
  if (options.bus) registerConsumerLagMetrics(metrics.registry, options.bus, 'gateway');
  const parts: GatewayParts = {
    identity: new ServiceClient({ name: 'identity', ...options.identity }, options.rpcTimeoutMs, metrics.recordRpc),
    accounts: new ServiceClient({ name: 'accounts', ...options.accounts }, options.rpcTimeoutMs, metrics.recordRpc),
    quoting: new ServiceClient({ name: 'quoting', ...options.quoting }, options.rpcTimeoutMs, metrics.recordRpc),
    payments: new ServiceClient({ name: 'payments', ...options.payments }, options.rpcTimeoutMs, metrics.recordRpc),
    webhooks: new ServiceClient({ name: 'webhooks', ...options.webhooks }, options.rpcTimeoutMs, metrics.recordRpc),
    walletAuth: new ServiceClient({ name: 'wallet-auth', ...options.walletAuth }, options.rpcTimeoutMs, metrics.recordRpc),
    cards: new ServiceClient({ name: 'cards', ...options.cards }, options.rpcTimeoutMs, metrics.recordRpc),
    agents: new ServiceClient({ name: 'agents', ...options.agents }, options.rpcTimeoutMs, metrics.recordRpc),
    cache: new CredentialCache(),
    limiter: new RateLimiter(options.rateLimit?.perSecond ?? 50, options.rateLimit?.burst ?? 100),
    failedAuth: new FailedAuthThrottle(options.authFailures ?? DEFAULT_FAILED_AUTH_LIMITS),
    idempotency: new IdempotencyStore(dataSource, { ttlMs, leaseMs: Math.max(options.rpcTimeoutMs * 2, 30_000) }),
    errors: new HttpErrorFilter(options.log),
    publicUrl: options.publicUrl,
  };
  // Every request passes the gateway's request checks (gateway-http.ts) before any route, guard or pipe sees it.
  const server = gatewayFastify({ trustProxy: options.trustProxy, bodyLimit: options.bodyLimit });
  const { checks } = mountGatewayOps(server, { metrics, identity: parts.identity, accounts: parts.accounts, quoting: parts.quoting, payments: parts.payments, webhooks: parts.webhooks, walletAuth: parts.walletAuth, cards: parts.cards, agents: parts.agents, database: dataSource, bus: options.bus });
  // The platform API under /<version> and the operator API under /operator/v1, each route guarded by its declared auth.
  const pipeline: OperationPipeline = {
    guard: new BasicAuthGuard(parts.identity, parts.agents, parts.cache, parts.limiter, new Reflector(), parts.failedAuth),
    idempotency: new IdempotencyInterceptor(parts.idempotency, parts.errors),
    failedAttempts: new FailedAttemptsInterceptor(new FailureWindows(), parts.errors),
    pipes: [requireObjectBody, createValidationPipe()],
    errors: parts.errors,
  };
  const clients = { identity: parts.identity, accounts: parts.accounts, quoting: parts.quoting, payments: parts.payments, webhooks: parts.webhooks, walletAuth: parts.walletAuth, cards: parts.cards, agents: parts.agents };
  // A deleted token stops working here at once; other gateways forget it when TokenDeleted.v1 reaches them.
  const after = { deleteTokenById: (result: unknown) => parts.cache.forgetClient((result as { clientId: string }).clientId) };
  bindOperations(server, OPERATIONS, { prefix: `/${API_VERSION}`, clients, publicUrl: parts.publicUrl, after }, pipeline);
  bindOperations(server, OPERATOR_OPERATIONS, { prefix: OPERATOR_API_PREFIX, clients, publicUrl: parts.publicUrl }, pipeline);
  mountRailCallbacks(server, parts.payments); // its body as raw bytes: the signature is over them
  // GET /openapi.json and /docs at the root, GET /operator/v1/openapi.json and /operator/v1/docs: no auth.
  mountApiReference(server, API_VERSION);
  mountKycLinkPage(server, parts.identity); // GET /kyc/{token}: the hosted KYC page, no Basic auth (the token is the credential)
  mountCardRevealPage(server, parts.cards); // GET /card-reveal/{token}: a card's PAN, CVV and expiry, no Basic auth (the token is the credential)
  // GET / (what this is, where to go) and the console at /console: its files, sessions and its calls to both APIs.
  const sessions = new ConsoleSessions(dataSource, options.secretHashKey, options.consoleSessions);
  const assets = loadConsoleAssets();
  mountLandingPage(server, API_VERSION, { consoleBuilt: assets.size > 0 });
  mountConsole(server, { apiVersion: API_VERSION, sessions, identity: parts.identity, errors: parts.errors, assets, publicUrl: parts.publicUrl });
  // What the request checks and the body reader refuse, and every route no one serves, in the envelope.
  server.setErrorHandler((error, request, reply) => parts.errors.reply(error, request, reply));
  server.setNotFoundHandler((request, reply) => parts.errors.reply(new ApiError('NOT_FOUND', 'no such resource or route'), request, reply));
  const eviction: SubscriptionHandle | undefined = options.bus ? await evictDeletedTokens(options.bus, parts.cache) : undefined;
  const purge = setInterval(() => {
    void parts.idempotency.purgeExpired().catch((e) => options.log?.('idempotency purge failed', e));
    void sessions.purgeExpired().catch((e) => options.log?.('console session purge failed', e));
  }, 10 * 60_000);
  purge.unref();
  await parts.idempotency.start((e) => options.log?.('idempotency heartbeat failed', e));
  const host = options.host ?? '127.0.0.1';
  const ops = options.ops && options.ops.listen !== false ? await startOpsServer({ app: 'gateway', host: options.ops.host, port: options.ops.port, registry: metrics.registry, checks }) : undefined;
  await server.listen({ port: options.port, host }).catch(async (error: unknown) => {
    await ops?.stop();
    throw error;
  });
  const address = server.server.address() as { port: number };
  // A wildcard address is reached on loopback from this host; a named one only where it listens.
  const reachableAt = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    server,
    url: `http://${reachableAt}:${address.port}/${API_VERSION}`,
    ops,
    checks,
    registry: metrics.registry,
    stop: async () => {
      clearInterval(purge);
      await ops?.stop();
      await server.close();
      await eviction?.stop();
      await parts.identity.close();
      await parts.accounts.close();
      await parts.quoting.close();
      await parts.payments.close();
      await parts.webhooks.close();
      await parts.walletAuth.close();
      await parts.cards.close();
      await parts.agents.close();
      await parts.idempotency.stop();
      await dataSource.destroy();
    },
  };
}
