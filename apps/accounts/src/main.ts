import 'reflect-metadata';
import { Accounts, startAccountsServer } from '@payments/accounts';
import { createEventBus, serviceTopic } from '@payments/messaging';
import { createLogger, loadConfig } from '@payments/runtime';

/** Cluster mode: the accounts service alone (DATABASE_URL and KAFKA_BROKERS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('accounts', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'accounts', namespace: config.busNamespace });
  const accounts = await Accounts.open({ databaseUrl: config.databaseUrl, bus, topic: serviceTopic('accounts'), sandboxTimeScale: config.sandboxTimeScale, log, quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort, rpcTimeoutMs: config.rpcTimeoutMs } });
  const server = await startAccountsServer(accounts, { host: config.rpcHost, port: config.accountsRpcPort }, log, { host: config.rpcHost, port: config.accountsOpsPort, bus });
  logger.info(`accounts RPC listening on ${config.rpcHost}:${config.accountsRpcPort}`);
  const shutdown = () => void server.stop().then(() => bus.close()).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`accounts failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
