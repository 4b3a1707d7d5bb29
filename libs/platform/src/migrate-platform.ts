import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { Accounts } from '@payments/accounts';
import { Agents } from '@payments/agents';
import { Cards } from '@payments/cards';
import { GATEWAY_SCHEMA, migrateGatewaySchema } from '@payments/gateway';
import { Identity } from '@payments/identity';
import { EventBus, serviceTopic } from '@payments/messaging';
import { Payments } from '@payments/payments';
import { Quoting } from '@payments/quoting';
import { openServiceDatabase, RuntimeConfig, ServiceHost } from '@payments/runtime';
import { WalletAuth } from '@payments/wallet-auth';
import { Webhooks } from '@payments/webhooks';

/** Migrations applied by one run, per schema, as `<module>:<version>_<name>` (empty when it was up to date). */
export type AppliedMigrations = Record<string, string[]>;

/**
 * `admin db:migrate` (the Helm pre-install/pre-upgrade Job): applies the schema migrations of the gateway and of
 * every service. Each service is opened as its process opens it, so the migration sets are exactly those its pods
 * apply at start (under the same advisory lock), then closed: no RPC server, relay, timer or consumer starts.
 * Afterwards a pod finds nothing left to apply. The PostgreSQL-log bus of the one-process mode migrates itself.
 */
export async function migratePlatform(config: RuntimeConfig, databaseUrl: string, bus: EventBus): Promise<AppliedMigrations> {
  const before = await migrationsInDatabase(databaseUrl);
  // Migrations are SQL and derive nothing from SECRET_HASH_KEY; a throwaway key spares the Job that secret.
  const secretHashKey = randomBytes(32);
  const common = { databaseUrl, bus, sandboxTimeScale: config.sandboxTimeScale, rpcTimeoutMs: config.rpcTimeoutMs };
  const endpoint = (host: string, port: number) => ({ host, port, rpcTimeoutMs: config.rpcTimeoutMs });
  const identity = endpoint(config.identityRpcHost, config.identityRpcPort);
  const accounts = endpoint(config.accountsRpcHost, config.accountsRpcPort);
  const quoting = endpoint(config.quotingRpcHost, config.quotingRpcPort);
  const payments = endpoint(config.paymentsRpcHost, config.paymentsRpcPort);
  const walletAuth = endpoint(config.walletAuthRpcHost, config.walletAuthRpcPort);
  const cards = endpoint(config.cardsRpcHost, config.cardsRpcPort);
  const services: (() => Promise<{ host: ServiceHost }>)[] = [
    () => Identity.open({ ...common, topic: serviceTopic('identity'), secretHashKey }),
    () => Accounts.open({ ...common, topic: serviceTopic('accounts') }),
    () => Quoting.open({ ...common, topic: serviceTopic('quoting'), accounts, walletAuth }),
    () => Payments.open({ ...common, topic: serviceTopic('payments'), secretHashKey, accounts, quoting }),
    () => Cards.open({ ...common, topic: serviceTopic('cards'), secretHashKey, accounts, identity, walletAuth }),
    () => Agents.open({ ...common, topic: serviceTopic('agents'), secretHashKey, identity, accounts, quoting, payments }),
    () => WalletAuth.open({ ...common, topic: serviceTopic('wallet-auth'), secretHashKey, accounts, identity, cards }),
    () => Webhooks.open({ ...common, identity, accounts, attemptTimeoutMs: config.webhookTimeoutMs, backoffScale: config.webhookBackoffScale }),
  ];
  for (const open of services) {
    const service = await open();
    await service.host.stop();
  }
  const gateway = await openServiceDatabase({ url: databaseUrl, schema: GATEWAY_SCHEMA, poolSizeMax: 2 });
  try {
    await migrateGatewaySchema(gateway);
  } finally {
    await gateway.destroy();
  }
  const after = await migrationsInDatabase(databaseUrl);
  return Object.fromEntries(Object.entries(after).map(([schema, names]) => [schema, names.filter((n) => !before[schema]?.includes(n))]));
}

/** Every applied migration, per schema that has a schema_migrations table. */
export async function migrationsInDatabase(databaseUrl: string): Promise<AppliedMigrations> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows: schemas } = await client.query<{ schema: string }>(
      `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'schema_migrations' ORDER BY 1`,
    );
    const applied: AppliedMigrations = {};
    for (const { schema } of schemas) {
      const { rows } = await client.query<{ name: string }>(
        `SELECT module || ':' || lpad(version::text, 4, '0') || '_' || name AS name FROM ${client.escapeIdentifier(schema)}.schema_migrations ORDER BY module, version`,
      );
      applied[schema] = rows.map((r) => r.name);
    }
    return applied;
  } finally {
    await client.end();
  }
}
