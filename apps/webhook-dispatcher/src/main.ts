import 'reflect-metadata';
import { createEventBus } from '@payments/messaging';
import { createLogger, loadConfig } from '@payments/runtime';
import { startWebhookDispatcherServer, Webhooks } from '@payments/webhooks';

/** Cluster mode: the webhook dispatcher alone (DATABASE_URL and KAFKA_BROKERS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('webhook-dispatcher', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'webhook-dispatcher', namespace: config.busNamespace });
  const webhooks = await Webhooks.open({
    databaseUrl: config.databaseUrl,
    bus,
    sandboxTimeScale: config.sandboxTimeScale,
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    attemptTimeoutMs: config.webhookTimeoutMs,
    backoffScale: config.webhookBackoffScale,
    log,
  });
  const ops = { host: config.rpcHost, port: config.webhookDispatcherOpsPort, bus };
  const server = await startWebhookDispatcherServer(webhooks, { host: config.rpcHost, port: config.webhookDispatcherRpcPort }, log, ops);
  logger.info(`webhook dispatcher RPC listening on ${config.rpcHost}:${config.webhookDispatcherRpcPort}`);
  const shutdown = () => void server.stop().then(() => bus.close()).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`webhook dispatcher failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
