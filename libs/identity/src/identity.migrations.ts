import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the identity service (the event store tables come from eventsourcingMigrations). */
export const identityMigrations: MigrationSet = {
  module: 'identity',
  migrations: [
    {
      version: 1,
      name: 'platforms_tokens_configs',
      sql: `
        CREATE TABLE {{schema}}.platforms (
          platform_id text PRIMARY KEY,
          name text NOT NULL,
          created_at timestamptz NOT NULL
        );
        CREATE TABLE {{schema}}.api_tokens (
          token_id text PRIMARY KEY,
          client_id text NOT NULL UNIQUE,
          platform_id text NOT NULL REFERENCES {{schema}}.platforms (platform_id),
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          name text NOT NULL,
          permissions text[] NOT NULL,
          secret_hash text NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE INDEX api_tokens_list_idx ON {{schema}}.api_tokens (platform_id, mode, token_id COLLATE "C") WHERE deleted_at IS NULL;
        CREATE TABLE {{schema}}.platform_configs (
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          config_id text NOT NULL UNIQUE,
          uma_domain text,
          webhook_endpoint text,
          supported_currencies jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          PRIMARY KEY (platform_id, mode)
        );
      `,
    },
    {
      version: 2,
      name: 'customers_beneficial_owners',
      sql: `
        CREATE TABLE {{schema}}.customers (
          customer_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          platform_customer_id text NOT NULL,
          customer_type text NOT NULL CHECK (customer_type IN ('INDIVIDUAL', 'BUSINESS')),
          uma_address text NOT NULL,
          region text,
          currencies text[] NOT NULL DEFAULT '{}',
          status text NOT NULL, -- kycStatus or kybStatus
          body jsonb NOT NULL, -- the Customer as the API returns it
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE UNIQUE INDEX customers_platform_customer_id_key ON {{schema}}.customers (platform_id, mode, platform_customer_id) WHERE deleted_at IS NULL;
        CREATE UNIQUE INDEX customers_uma_address_key ON {{schema}}.customers (platform_id, mode, lower(uma_address)) WHERE deleted_at IS NULL;
        CREATE INDEX customers_list_idx ON {{schema}}.customers (platform_id, mode, customer_id COLLATE "C");
        CREATE TABLE {{schema}}.beneficial_owners (
          beneficial_owner_id text PRIMARY KEY,
          customer_id text NOT NULL REFERENCES {{schema}}.customers (customer_id),
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX beneficial_owners_customer_idx ON {{schema}}.beneficial_owners (customer_id, beneficial_owner_id COLLATE "C");
      `,
    },
    {
      version: 3,
      name: 'platform fee configs',
      sql: `ALTER TABLE {{schema}}.platform_configs ADD COLUMN fee_configs jsonb NOT NULL DEFAULT '[]'::jsonb;`,
    },
    {
      version: 4,
      name: 'platform_embedded_wallet_config',
      // Null until a platform sets one: no config written before this had one, so there is nothing to backfill.
      sql: `ALTER TABLE {{schema}}.platform_configs ADD COLUMN embedded_wallet_config jsonb;`,
    },
  ],
};