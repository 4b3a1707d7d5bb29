import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';

import { createEventBus, serviceTopic } from '@payments/messaging';
import { bootstrapFromEnv, Identity, startIdentityServer } from '@payments/identity';
import { stopTracing } from '@payments/observability';
import { busLogOf, createLogger, loadClusterSecretHashKey, loadConfig, rpcBinding, startFailure } from '@payments/runtime';

/** Cluster mode: the identity service alone (DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('identity', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
  const secretHashKey = loadClusterSecretHashKey(); // fail closed, before any connection; installs the RPC key
  const bootstrap = bootstrapFromEnv();
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'identity', namespace: config.busNamespace, log: busLogOf(logger) });
  const identity = await Identity.open({
    databaseUrl: config.databaseUrl,
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
  if (bootstrap) await identity.platforms.ensureBootstrap(bootstrap);
  const rpc = rpcBinding(config, config.identityRpcPort);
  const server = await startIdentityServer(identity, rpc, log, { host: config.rpcHost, port: config.identityOpsPort, bus }, bus);
  logger.info(`identity RPC listening on ${rpc.host}:${rpc.port}, ops (/healthz, /readyz, /metrics) on port ${server.ops?.port}`);
  const shutdown = () => void server.stop().then(() => bus.close()).then(stopTracing).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`identity failed to start: ${startFailure(error)}\n`);
  process.exit(1);
});
