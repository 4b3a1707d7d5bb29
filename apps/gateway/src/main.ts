import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { startGateway } from '@payments/gateway';
import { createEventBus } from '@payments/messaging';
import { stopTracing } from '@payments/observability';
import { busLogOf, createLogger, loadClusterSecretHashKey, loadConfig, startFailure } from '@payments/runtime';

/** Cluster mode: the API gateway alone; it finds services by <SERVICE>_RPC_HOST/PORT and signs its RPC under SECRET_HASH_KEY. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('gateway', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL (idempotency records) and KAFKA_BROKERS');
  const secretHashKey = loadClusterSecretHashKey(); // SECRET_HASH_KEY: the gateway signs every RPC under the key derived from it
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'gateway', namespace: config.busNamespace, log: busLogOf(logger) });
  const gateway = await startGateway({
    port: config.port,
    host: config.host,
    ops: { host: config.rpcHost, port: config.gatewayOpsPort },
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort },
    walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort },
    cards: { host: config.cardsRpcHost, port: config.cardsRpcPort },
    agents: { host: config.agentsRpcHost, port: config.agentsRpcPort },
    payments: { host: config.paymentsRpcHost, port: config.paymentsRpcPort },
    webhooks: { host: config.webhookDispatcherRpcHost, port: config.webhookDispatcherRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    databaseUrl: config.databaseUrl,
    bus,
    rateLimit: { perSecond: config.rateLimitPerSecond, burst: config.rateLimitBurst },
    authFailures: config.authFailures,
    trustProxy: config.trustProxy,
    idempotencyTtlMs: config.idempotencyTtlHours * 3_600_000,
    publicUrl: config.publicUrl,
    secretHashKey,
    log: (message, error) => (error ? logger.error({ err: error }, message) : logger.info(message)),
  });
  logger.info(`gateway listening on ${config.host}:${config.port}, ops (/healthz, /readyz, /metrics) on ${config.rpcHost}:${gateway.ops?.port}`);
  const shutdown = () => void gateway.stop().then(() => bus.close()).then(stopTracing).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`gateway failed to start: ${startFailure(error)}\n`);
  process.exit(1);
});
