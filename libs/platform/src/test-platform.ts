import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mode, OPERATOR_API_PREFIX, OperatorRole } from '@payments/contracts';
import { CreatedOperator, CreatedPlatform, localBootstrapCredentials, PlainCredential } from '@payments/identity';
import { createLogger, loadConfig } from '@payments/runtime';
import { basicAuth, createTestDatabase, freePort, http, HttpResult, TestDatabase } from '@payments/testing';
import { responseConformance } from './test-response-conformance';
import { RunningPlatform, startPlatform } from './start-platform';

/** A tenant as a test sees it: its id and an HTTP Basic header per mode. */
export interface TestTenant {
  platformId?: string;
  sandbox: string;
  production: string;
}

/**
 * Test fixture: the whole platform in-process on a fresh database of the test server, with the bus the
 * environment selects (Kafka under CI). `call` talks to the gateway over real HTTP, and every answer is held to the
 * gateway's own OpenAPI document (test-response-conformance.ts): an undocumented status or a body that does not match the
 * documented schema makes the call throw.
 */
export interface TestPlatform {
  platform: RunningPlatform;
  url: string;
  tenant: TestTenant;
  /** The bootstrap tenant's raw credentials, for tests that build their own (e.g. wrong-secret) headers. */
  bootstrap: Record<Mode, PlainCredential>;
  database: TestDatabase;
  call<T = any>(method: string, path: string, options?: { auth?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<HttpResult<T>>;
  createTenant(name?: string): Promise<TestTenant & { created: CreatedPlatform }>;
  /** An operator of the deployment with `role` (as `npm run admin -- operator:create` makes one), and their Basic header. */
  createOperator(role: OperatorRole, name?: string): Promise<TestOperator>;
  /** A call to the operator API (`/operator/v1<path>`), held to the operator OpenAPI document like `call`. */
  operatorCall<T = any>(method: string, path: string, options: { auth: string; body?: unknown; rawBody?: string; headers?: Record<string, string> }): Promise<HttpResult<T>>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the HTTP helpers (test-*.ts) use of a platform: its API base URL, the bootstrap tenant and `call`. An
 * in-process TestPlatform is one, and so is the built launcher run as a child process (test-launcher.ts).
 */
export type PlatformApi = Pick<TestPlatform, 'url' | 'tenant' | 'call'>;

export interface TestOperator extends CreatedOperator {
  auth: string;
}

/**
 * `env` overrides the test defaults, among them EGRESS_ALLOW_PRIVATE_NETWORKS=true (webhook and contact-code
 * receivers in tests are on loopback); pass `EGRESS_ALLOW_PRIVATE_NETWORKS: 'false'` to test the egress policy.
 */
export async function startTestPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-platform-'));
  const database = await createTestDatabase();
  // Parallel test platforms may share one Kafka broker: each gets its own topics and consumer groups.
  const namespace = `${database.name}.`;
  const bootstrap = localBootstrapCredentials(join(dataDir, 'bootstrap-credentials.json'));
  const conformance = responseConformance();
  const boot = async () =>
    startPlatform({
      config: loadConfig({
        PORT: String(await freePort()),
        IDENTITY_RPC_PORT: String(await freePort()),
        IDENTITY_OPS_PORT: '0',
        GATEWAY_OPS_PORT: '0',
        ACCOUNTS_RPC_PORT: String(await freePort()),
        ACCOUNTS_OPS_PORT: '0',
        QUOTING_RPC_PORT: String(await freePort()),
        QUOTING_OPS_PORT: '0',
        WEBHOOK_DISPATCHER_RPC_PORT: String(await freePort()),
        WEBHOOK_DISPATCHER_OPS_PORT: '0',
        PAYMENTS_RPC_PORT: String(await freePort()),
        PAYMENTS_OPS_PORT: '0',
        WALLET_AUTH_RPC_PORT: String(await freePort()),
        WALLET_AUTH_OPS_PORT: '0',
        CARDS_RPC_PORT: String(await freePort()),
        CARDS_OPS_PORT: '0',
        AGENTS_RPC_PORT: String(await freePort()),
        AGENTS_OPS_PORT: '0',
        DATABASE_URL: database.url,
        KAFKA_BROKERS: process.env.KAFKA_BROKERS,
        BUS_NAMESPACE: namespace,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_SECOND: '0',
        // Test receivers listen on 127.0.0.1; a test of the egress policy passes EGRESS_ALLOW_PRIVATE_NETWORKS: 'false'.
        EGRESS_ALLOW_PRIVATE_NETWORKS: 'true',
        ...env,
      }),
      logger: createLogger('test', 'silent'),
      bootstrap,
    });
  const fixture: TestPlatform = {
    platform: await boot(),
    get url() {
      return fixture.platform.url;
    },
    database,
    bootstrap,
    tenant: {
      sandbox: basicAuth(bootstrap.SANDBOX.clientId, bootstrap.SANDBOX.clientSecret),
      production: basicAuth(bootstrap.PRODUCTION.clientId, bootstrap.PRODUCTION.clientSecret),
    },
    call: async (method, path, options = {}) => {
      const url = `${fixture.platform.url}${path}`;
      const result = await http(method, url, { auth: fixture.tenant.sandbox, ...options });
      await conformance.check(method, url, result);
      return result;
    },
    createTenant: async (name = 'Other platform') => {
      const created = await fixture.platform.identity.platforms.create(name);
      return {
        platformId: created.platformId,
        created,
        sandbox: basicAuth(created.sandbox.clientId, created.sandbox.clientSecret),
        production: basicAuth(created.production.clientId, created.production.clientSecret),
      };
    },
    createOperator: async (role, name = `${role.toLowerCase()} operator`) => {
      const created = await fixture.platform.identity.operators.create(name, role);
      return { ...created, auth: basicAuth(created.clientId, created.clientSecret) };
    },
    operatorCall: async (method, path, options) => {
      const url = `${new URL(fixture.platform.url).origin}${OPERATOR_API_PREFIX}${path}`;
      const result = await http(method, url, options);
      await conformance.check(method, url, result);
      return result;
    },
    restart: async () => {
      await fixture.platform.stop();
      fixture.platform = await boot();
    },
    stop: async () => {
      await fixture.platform.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}
