import '@payments/observability/register'; // first: tracing patches modules as they load
import 'reflect-metadata';
import { join } from 'node:path';
import { bootstrapFromEnv, localBootstrapCredentials } from '@payments/identity';
import { stopTracing } from '@payments/observability';
import { startPlatform } from '@payments/platform';
import { createLogger, loadConfig } from '@payments/runtime';

/** `npm start`: every app in one process, embedded PostgreSQL and bus unless DATABASE_URL / KAFKA_BROKERS say otherwise. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('platform', config.logLevel);
  const bootstrap = bootstrapFromEnv() ?? localBootstrapCredentials(join(config.dataDir, 'bootstrap-credentials.json'));
  const platform = await startPlatform({ config, logger, bootstrap, secretHashKeyHex: process.env.SECRET_HASH_KEY });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, shutting down`);
    platform.stop().then(stopTracing).then(
      () => process.exit(0),
      (error) => (logger.error({ err: error }, 'shutdown failed'), process.exit(1)),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGHUP', () => shutdown('SIGHUP'));

  const lines = [
    '',
    `payments-platform is up: ${platform.url}`,
    `  console: ${new URL(platform.url).origin}/console (sign in with the sandbox credentials below; operators: npm run admin -- operator:create)`,
    `  ops (/healthz, /readyz, /metrics of every app): http://${config.rpcHost}:${platform.ops.port}`,
    `  database: ${config.databaseUrl ? 'DATABASE_URL' : `embedded PostgreSQL in ${join(config.dataDir, 'postgres')}`}`,
    `  event bus: ${config.kafkaBrokers ? `Kafka ${config.kafkaBrokers.join(',')}` : 'embedded PostgreSQL log'}`,
    `  sandbox credentials (HTTP Basic): ${bootstrap.SANDBOX.clientId}:${bootstrap.SANDBOX.clientSecret}`,
    `  try: curl -u '${bootstrap.SANDBOX.clientId}:${bootstrap.SANDBOX.clientSecret}' ${platform.url}/config`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((error) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
