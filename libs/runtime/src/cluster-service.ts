import { createEventBus, EventBus } from '@payments/messaging';
import { stopTracing } from '@payments/observability';
import { loadConfig, RuntimeConfig } from './config';
import { busLogOf, createLogger } from './logger';
import { authenticateRpcWith } from './rpc/rpc-auth';
import { requireSecretHashKey } from './secret-key';

/** What every service boot needs besides the configuration: where its data lives, the bus, and a log sink. */
export interface ServiceDeps {
  databaseUrl: string;
  bus: EventBus;
  log: (message: string, error?: unknown) => void;
  /** SECRET_HASH_KEY: the services that hash or seal secrets derive their keys from it (the RPC key is installed already). */
  secretHashKey: Buffer;
  /**
   * The embedded mode (every app in one process): services are reached in-process only, so no RPC port and no
   * per-service ops port is bound; the launcher serves every app's checks and metrics on one ops port.
   */
  embedded?: boolean;
}

/**
 * SECRET_HASH_KEY of a cluster-mode process, and the RPC key derived from it installed for the process: every app
 * of the cluster speaks authenticated RPC (rpc-auth.ts), so every app needs the key. Fail closed: a pod without it
 * (or with one shorter than 32 bytes) does not start, and never makes one up (requireSecretHashKey).
 */
export function loadClusterSecretHashKey(): Buffer {
  const key = requireSecretHashKey();
  authenticateRpcWith(key);
  return key;
}

/**
 * The cluster-mode entry point of one service (`apps/<service>/src/main.ts`): loads the configuration, requires
 * DATABASE_URL, KAFKA_BROKERS and SECRET_HASH_KEY (and installs the RPC key) before any connection, boots the service
 * with the same function the embedded launcher uses, and stops it (then the bus, then flushes the spans still
 * buffered) on SIGINT/SIGTERM.
 */
export function runClusterService(name: string, boot: (config: RuntimeConfig, deps: ServiceDeps) => Promise<{ stop(): Promise<void> }>): void {
  const start = async () => {
    const config = loadConfig();
    const logger = createLogger(name, config.logLevel);
    if (!config.databaseUrl || !config.kafkaBrokers) throw new Error('cluster mode needs DATABASE_URL and KAFKA_BROKERS (use `npm start` for the embedded mode)');
    const secretHashKey = loadClusterSecretHashKey();
    const log = (message: string, error?: unknown) => (error ? logger.error({ err: error }, message) : logger.info(message));
    const bus = createEventBus({ kafkaBrokers: config.kafkaBrokers, databaseUrl: config.databaseUrl, clientId: name, namespace: config.busNamespace, log: busLogOf(logger) });
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
