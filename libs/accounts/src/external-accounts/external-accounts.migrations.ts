import { MigrationSet } from '@payments/eventsourcing';

/** Read models of external accounts, the customers the service knows of, and the platforms' currency limits. */
export const externalAccountsMigrations: MigrationSet = {
  module: 'accounts-external',
  migrations: [
    {
      version: 1,
      name: 'external_accounts',
      sql: `
        CREATE TABLE {{schema}}.external_accounts (
          external_account_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          customer_id text,
          status text NOT NULL,
          currency text NOT NULL,
          trusted boolean NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE INDEX external_accounts_owner_idx ON {{schema}}.external_accounts (platform_id, mode, customer_id, external_account_id COLLATE "C") WHERE deleted_at IS NULL;
        -- Identity's customers as far as external accounts need them (existence, type), from Customer* events.
        CREATE TABLE {{schema}}.known_customers (
          customer_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          customer_type text NOT NULL,
          deleted_at timestamptz
        );
        -- The full PlatformCurrencyConfig objects (min/max, required counterparty fields) for receiver lookups;
        -- rows written before this migration get them with the platform's next configuration change.
        ALTER TABLE {{schema}}.platform_currencies ADD COLUMN configs jsonb NOT NULL DEFAULT '[]'::jsonb;
      `,
    },
    {
      version: 2,
      name: 'embedded_wallets',
      sql: `
        -- When identity created the customer (CustomerCreated.v1), so a platform configuration that adds USDB and is
        -- read after the customers created since can still open their Embedded Wallets (identity-events.consumer.ts).
        -- Customers remembered before this migration keep NULL: they predate it, and get no Embedded Wallet that way.
        ALTER TABLE {{schema}}.known_customers ADD COLUMN created_at timestamptz;
        CREATE INDEX known_customers_created_idx ON {{schema}}.known_customers (platform_id, mode, created_at) WHERE deleted_at IS NULL;
        -- Every CustomerCreated.v1 asks whether its platform supports USDB.
        CREATE INDEX platform_currencies_platform_idx ON {{schema}}.platform_currencies (platform_id, mode);
      `,
    },
    {
      version: 3,
      name: 'production_verification',
      sql: `
        -- How a production account is verified (OPERATOR_APPROVAL or PAYOUT_RAIL, fixed at creation); NULL in the
        -- sandbox. Production accounts created before it waited for nobody: they read as OPERATOR_APPROVAL (the
        -- default; the state's fold reads their events the same way), so they enter the operator queue.
        ALTER TABLE {{schema}}.external_accounts ADD COLUMN verification_method text;
        UPDATE {{schema}}.external_accounts SET verification_method = 'OPERATOR_APPROVAL' WHERE mode = 'PRODUCTION';
        -- The operator queue: production accounts awaiting their verification, oldest (smallest UUIDv7) first.
        CREATE INDEX external_accounts_awaiting_idx ON {{schema}}.external_accounts (verification_method, external_account_id COLLATE "C")
          WHERE mode = 'PRODUCTION' AND deleted_at IS NULL AND status IN ('PENDING', 'UNDER_REVIEW');
        -- Each currency's method as an ADMIN operator set it (projected from its AccountVerificationMethod stream);
        -- a currency without a row has the default.
        CREATE TABLE {{schema}}.account_verification_methods (
          currency text PRIMARY KEY,
          method text NOT NULL CHECK (method IN ('OPERATOR_APPROVAL', 'PAYOUT_RAIL')),
          updated_at timestamptz NOT NULL,
          updated_by_id text NOT NULL,
          updated_by_name text NOT NULL
        );
      `,
    },
  ],
};
