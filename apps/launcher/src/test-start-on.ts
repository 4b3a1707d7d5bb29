import { startPlatform } from '@payments/platform';
import { createLogger, loadConfig } from '@payments/runtime';
import { freePort } from '@payments/testing';

/** Test fixture: the platform in-process on an existing database (no bootstrap platform is created). */
export async function startTestPlatformOn(databaseUrl: string, dataDir: string) {
  return startPlatform({
    config: loadConfig({
      PORT: String(await freePort()),
      IDENTITY_RPC_PORT: String(await freePort()),
      IDENTITY_OPS_PORT: '0',
      GATEWAY_OPS_PORT: '0',
      ACCOUNTS_RPC_PORT: String(await freePort()),
      ACCOUNTS_OPS_PORT: '0',
      QUOTING_RPC_PORT: String(await freePort()),
      QUOTING_OPS_PORT: '0',
      PAYMENTS_RPC_PORT: String(await freePort()),
      PAYMENTS_OPS_PORT: '0',
      WEBHOOK_DISPATCHER_RPC_PORT: String(await freePort()),
      WEBHOOK_DISPATCHER_OPS_PORT: '0',
      WALLET_AUTH_RPC_PORT: String(await freePort()),
      WALLET_AUTH_OPS_PORT: '0',
      CARDS_RPC_PORT: String(await freePort()),
      CARDS_OPS_PORT: '0',
      AGENTS_RPC_PORT: String(await freePort()),
      AGENTS_OPS_PORT: '0',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      RATE_LIMIT_PER_SECOND: '0',
      EGRESS_ALLOW_PRIVATE_NETWORKS: 'true', // test receivers listen on loopback, as in startTestPlatform
    }),
    logger: createLogger('test', 'silent'),
  });
}
