import { createEventBus, EventBus } from '@payments/messaging';
import { stopTracing } from '@payments/observability';
import { loadConfig, RuntimeConfig } from './config';
import { createLogger } from './logger';

/** What every service boot needs besides the configuration: where its data lives, the bus, and a log sink. */
export interface ServiceDeps {
  databaseUrl: string;
  bus: EventBus;
  log: (message: string, error?: unknown) => void;
}

/**
 * The cluster-mode entry point of one service (`apps/<service>/src/main.ts`): loads the configuration, requires
 * DATABASE_URL and KAFKA_BROKERS, boots the service with the same function the embedded launcher uses, and stops it
 * (then the bus, then flushes the spans still buffered) on SIGINT/SIGTERM.
 */
export function runClusterService(name: string, boot: (config: RuntimeConfig, deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>): void {
  const start = async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.logLevel);
    if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
    const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
    const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: name, namespace: config.busNamespace });
    const service = await boot(config, { databaseUrl: config.databaseUrl, bus, log });
    logger.info(`${name} started`);
    const shutdown = () => void service.stop().then(() => bus.close()).then(stopTracing).then(() => process.exit(0), () => process.exit(1));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  };
  start().catch((error) => {
    process.stderr.write(`${name} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
