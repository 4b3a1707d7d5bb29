import { join } from 'node:path';
import { Accounts, bootAccounts } from '@payments/accounts';
import { Mode } from '@payments/contracts';
import { Gateway, startGateway } from '@payments/gateway';
import { bootQuoting, Quoting } from '@payments/quoting';
import { bootWebhookDispatcher, Webhooks } from '@payments/webhooks';
import { bootPayments, Payments } from '@payments/payments';
import { CreatedPlatform, Identity, IdentityServer, PlainCredential, startIdentityServer } from '@payments/identity';
import { bootWalletAuth, WalletAuth } from '@payments/wallet-auth';
import { bootCards, Cards } from '@payments/cards';
import { Agents, bootAgents } from '@payments/agents';
import { createEventBus, EventBus, serviceTopic } from '@payments/messaging';
import { EmbeddedDatabase, startEmbeddedPostgres } from '@payments/embedded-postgres';
import { authenticateRpcWith, busLogOf, loadSecretHashKey, Logger, OpsServer, ReadinessChecks, rpcBinding, RuntimeConfig, ServiceServer, startOpsServer } from '@payments/runtime';

export interface PlatformOptions {
  config: RuntimeConfig;
  logger: Logger;
  /** Credentials of the first platform (BOOTSTRAP_*); created on first start when given. */
  bootstrap?: Record<Mode, PlainCredential>;
  secretHashKeyHex?: string;
  /** Settings of the embedded PostgreSQL's server, when one is started (the bench's BENCH_PG_STATEMENTS). */
  embeddedPostgresSettings?: Record<string, string>;
}

export interface RunningPlatform {
  url: string;
  databaseUrl: string;
  bus: EventBus;
  identity: Identity;
  identityServer: IdentityServer;
  accounts: Accounts;
  accountsServer: ServiceServer;
  quoting: Quoting;
  quotingServer: ServiceServer;
  payments: Payments;
  paymentsServer: ServiceServer;
  webhooks: Webhooks;
  webhooksServer: ServiceServer;
  walletAuth: WalletAuth;
  walletAuthServer: ServiceServer;
  cards: Cards;
  cardsServer: ServiceServer;
  agents: Agents;
  agentsServer: ServiceServer;
  gateway: Gateway;
  /** The one ops server of the process (GATEWAY_OPS_PORT): every app's /healthz, /readyz and /metrics. */
  ops: OpsServer;
  /** The platform created on this start, with its secrets (shown once), if one was created. */
  createdPlatform?: CreatedPlatform;
  stop(): Promise<void>;
}

/**
 * Boots every app in one process (the embedded mode of DESIGN §3): PostgreSQL (embedded when DATABASE_URL is
 * unset), the bus (Kafka when KAFKA_BROKERS is set, else the PostgreSQL log), the services, then the gateway.
 * The services talk in-process, so the process binds only the API port (HOST, loopback by default) and one ops
 * port (GATEWAY_OPS_PORT) serving every app's checks and metrics: no RPC or per-service ops port, so a second
 * instance or another program cannot collide with it there, and nothing internal is reachable from the network.
 * `stop` shuts down in reverse order and stops an embedded PostgreSQL, leaving no process behind.
 */
export async function startPlatform(options: PlatformOptions): Promise<RunningPlatform> {
  const { config, logger } = options;
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const stack: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stack.reverse()) await stop().catch((e) => log('shutdown step failed', e));
    stack.length = 0;
  };
  try {
    let embedded: EmbeddedDatabase | undefined;
    if (!config.databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'postgres'), port: config.embeddedPostgresPort, settings: options.embeddedPostgresSettings });
      stack.push(() => embedded!.stop());
    }
    const databaseUrl = config.databaseUrl ?? embedded!.url;
    const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl, clientId: 'payments-platform', namespace: config.busNamespace, log: busLogOf(logger) });
    stack.push(() => bus.close());

    const secretHashKey = loadSecretHashKey(options.secretHashKeyHex, join(config.dataDir, 'secret-hash.key'));
    authenticateRpcWith(secretHashKey); // the services talk in-process here; any TCP client of this process signs
    const identity = await Identity.open({
      databaseUrl,
      bus,
      topic: serviceTopic('identity'),
      secretHashKey,
      sandboxTimeScale: config.sandboxTimeScale,
      contactDeliveryUrl: config.contactDeliveryUrl,
      egressAllowPrivateNetworks: config.egressAllowPrivateNetworks,
      walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort, rpcTimeoutMs: config.rpcTimeoutMs },
      customers: config.endUserTerms ? { terms: config.endUserTerms } : {},
      kycReviews: { approvalsRequired: config.kycApprovalsRequired },
      log,
    });
    const createdPlatform = options.bootstrap
      ? await identity.platforms.ensureBootstrap(options.bootstrap)
      : (await identity.platforms.count()) === 0
        ? await identity.platforms.create('Bootstrap platform')
        : undefined;
    const identityOps = { host: config.rpcHost, port: config.identityOpsPort, bus, listen: false };
    const identityServer: IdentityServer = await startIdentityServer(identity, rpcBinding(config, config.identityRpcPort, true), log, identityOps, bus);
    stack.push(() => identityServer.stop());

    // The same boot functions run each service alone in the cluster mode (apps/<service>/src/main.ts).
    const deps = { databaseUrl, bus, log, secretHashKey, embedded: true };
    const { accounts, server: accountsServer } = await bootAccounts(config, deps);
    stack.push(() => accountsServer.stop());
    const { quoting, server: quotingServer } = await bootQuoting(config, deps);
    stack.push(() => quotingServer.stop());
    const { payments, server: paymentsServer } = await bootPayments(config, deps, secretHashKey);
    stack.push(() => paymentsServer.stop());
    const { webhooks, server: webhooksServer } = await bootWebhookDispatcher(config, deps);
    stack.push(() => webhooksServer.stop());
    const { walletAuth, server: walletAuthServer } = await bootWalletAuth(config, deps, secretHashKey);
    stack.push(() => walletAuthServer.stop());
    const { cards, server: cardsServer } = await bootCards(config, deps, secretHashKey);
    stack.push(() => cardsServer.stop());
    const { agents, server: agentsServer } = await bootAgents(config, deps, secretHashKey);
    stack.push(() => agentsServer.stop());

    const gateway = await startGateway({
      port: config.port,
      host: config.host,
      ops: { host: config.rpcHost, port: config.gatewayOpsPort, listen: false },
      identity: { host: config.identityRpcHost, port: config.identityRpcPort },
      accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
      quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort },
      payments: { host: config.paymentsRpcHost, port: config.paymentsRpcPort },
      webhooks: { host: config.webhookDispatcherRpcHost, port: config.webhookDispatcherRpcPort },
      walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort },
      cards: { host: config.cardsRpcHost, port: config.cardsRpcPort },
      agents: { host: config.agentsRpcHost, port: config.agentsRpcPort },
      rpcTimeoutMs: config.rpcTimeoutMs,
      databaseUrl,
      bus,
      rateLimit: { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
      authFailures: config.authFailures,
      trustProxy: config.trustProxy,
      idempotencyTtlMs: config.idempotencyTtlHours * 3_600_000,
      publicUrl: config.publicUrl,
      secretHashKey,
      log,
    });
    stack.push(() => gateway.stop());
    const servers = [identityServer, accountsServer, quotingServer, paymentsServer, webhooksServer, walletAuthServer, cardsServer, agentsServer];
    const ops = await startOpsServer({ app: 'platform', host: config.rpcHost, port: config.gatewayOpsPort, registry: [gateway.registry, ...servers.map((s) => s.registry)], checks: platformChecks(gateway, servers) });
    stack.push(() => ops.stop());
    return { url: gateway.url, databaseUrl, bus, identity, identityServer, accounts, accountsServer, quoting, quotingServer, payments, paymentsServer, webhooks, webhooksServer, walletAuth, walletAuthServer, cards, cardsServer, agents, agentsServer, gateway, ops, createdPlatform, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The gateway's checks (its database, the bus, every service answering) and each service's own, as `<app>.<check>`. */
function platformChecks(gateway: Gateway, servers: ServiceServer[]): ReadinessChecks {
  const own = servers.flatMap((server) => Object.entries(server.checks ?? {}).map(([name, check]) => [`${server.label}.${name}`, check] as const));
  return { ...gateway.checks, ...Object.fromEntries(own) };
}
