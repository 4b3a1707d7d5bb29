import 'reflect-metadata';
import { Quoting, startQuotingServer } from '@payments/quoting';
import { createEventBus, serviceTopic } from '@payments/messaging';
import { createLogger, loadConfig } from '@payments/runtime';

/** Cluster mode: the quoting service alone (DATABASE_URL and KAFKA_BROKERS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('quoting', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'quoting', namespace: config.busNamespace });
  const quoting = await Quoting.open({
    databaseUrl: config.databaseUrl,
    bus,
    topic: serviceTopic('quoting'),
    sandboxTimeScale: config.sandboxTimeScale,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    quotes: { quoteTtlMs: config.quoteTtlMs, scaChallengeTtlMs: config.scaChallengeTtlMs },
    scaPasskey: config.scaPasskey,
    log,
  });
  const server = await startQuotingServer(quoting, { host: config.rpcHost, port: config.quotingRpcPort }, log, { host: config.rpcHost, port: config.quotingOpsPort, bus });
  logger.info(`quoting RPC listening on ${config.rpcHost}:${config.quotingRpcPort}`);
  const shutdown = () => void server.stop().then(() => bus.close()).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`quoting failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
