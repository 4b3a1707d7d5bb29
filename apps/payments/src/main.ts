import 'reflect-metadata';
import { Payments, startPaymentsServer } from '@payments/payments';
import { createEventBus, serviceTopic } from '@payments/messaging';
import { createLogger, loadConfig } from '@payments/runtime';

/** Cluster mode: the payments service alone (DATABASE_URL and KAFKA_BROKERS required). */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('payments', config.logLevel);
  if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
  const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
  const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: 'payments', namespace: config.busNamespace });
  const payments = await Payments.open({
    databaseUrl: config.databaseUrl,
    bus,
    topic: serviceTopic('payments'),
    sandboxTimeScale: config.sandboxTimeScale,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
    log,
  });
  const server = await startPaymentsServer(payments, { host: config.rpcHost, port: config.paymentsRpcPort }, log, { host: config.rpcHost, port: config.paymentsOpsPort, bus });
  logger.info(`payments RPC listening on ${config.rpcHost}:${config.paymentsRpcPort}`);
  const shutdown = () => void server.stop().then(() => bus.close()).then(() => process.exit(0), () => process.exit(1));
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  process.stderr.write(`payments failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
