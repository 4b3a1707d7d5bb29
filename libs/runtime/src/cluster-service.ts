import { createEventBus, EventBus } from '@payments/messaging';
import { stopTracing } from '@payments/observability';
import { loadConfig, RuntimeConfig } from './config';
import { createLogger } from './logger';
import { requireSecretHashKey } from './secret-key';

/** What every service boot needs besides the configuration: where its data lives, the bus, and a log sink. */
export interface ServiceDeps {
  databaseUrl: string;
  bus: EventBus;
  log: (message: string, error?: unknown) => void;
  /** SECRET_HASH_KEY, for the services that derive keys from it (`needsSecretHashKey`). */
  secretHashKey?: Buffer;
}

/**
 * The cluster-mode entry point of one service (`apps/<service>/src/main.ts`): loads the configuration, requires
 * DATABASE_URL and KAFKA_BROKERS, boots the service with the same function the embedded launcher uses, and stops it
 * (then the bus, then flushes the spans still buffered) on SIGINT/SIGTERM. A service that `needsSecretHashKey`
 * gets it in `deps`, and does not start without it (requireSecretHashKey: fail closed, before any connection).
 */
export function runClusterService(
  name: string,
  boot: (config: RuntimeConfig, deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>,
  options: { needsSecretHashKey?: boolean } = {},
): void {
  const start = async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.logLevel);
    if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
    const secretHashKey = options.needsSecretHashKey ? requireSecretHashKey() : undefined;
    const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
    const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: name, namespace: config.busNamespace });
    const service = await boot(config, { databaseUrl: config.databaseUrl, bus, log, secretHashKey });
    logger.info(`${name} started`);
    const shutdown = () => void service.stop().then(() => bus.close()).then(stopTracing).then(() => process.exit(0), () => process.exit(1));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  };
  start().catch((error) => {
    process.stderr.write(`${name} failed to start: ${startFailure(error)}\n`);
    process.exit(1);
  });
}

/** A configuration error is its message (the operator's next step); anything else keeps its stack. */
export function startFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return /^(SECRET_HASH_KEY|cluster mode needs|BOOTSTRAP_)/.test(error.message) ? error.message : (error.stack ?? error.message);
}
