import { MigrationSet } from '@payments/eventsourcing';

/**
 * Read models of stablecoins in the payments schema. Links and stablecoins have ids derived from what makes them
 * unique (so a duplicate lands on the same stream): they list by `sort_key` (creation time, then id).
 */
export const stablecoinsMigrations: MigrationSet = {
  module: 'stablecoins',
  migrations: [
    {
      version: 1,
      name: 'stablecoins',
      sql: `
        CREATE TABLE {{schema}}.stablecoin_provider_accounts (
          link_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          provider text NOT NULL,
          status text NOT NULL,
          sort_key text NOT NULL,
          body jsonb NOT NULL
        );
        CREATE INDEX stablecoin_provider_accounts_list_idx ON {{schema}}.stablecoin_provider_accounts (platform_id, mode, sort_key COLLATE "C");
        CREATE TABLE {{schema}}.stablecoins (
          stablecoin_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          provider text NOT NULL,
          issuance_status text NOT NULL,
          grid_operations_status text NOT NULL,
          sort_key text NOT NULL,
          body jsonb NOT NULL
        );
        CREATE INDEX stablecoins_list_idx ON {{schema}}.stablecoins (platform_id, mode, sort_key COLLATE "C");
        CREATE TABLE {{schema}}.stablecoin_operations (
          operation_id text PRIMARY KEY,
          stablecoin_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          operation_type text NOT NULL,
          status text NOT NULL,
          body jsonb NOT NULL
        );
        CREATE INDEX stablecoin_operations_list_idx ON {{schema}}.stablecoin_operations (stablecoin_id, operation_id COLLATE "C");
      `,
    },
  ],
};
