import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the wallet-auth service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const walletAuthMigrations: MigrationSet = {
  module: 'wallet-auth',
  migrations: [
    {
      version: 1,
      name: 'wallet index',
      sql: `
        -- Credential and session ids to the wallet (internal account) they belong to.
        CREATE TABLE {{schema}}.wallet_index (
          id text PRIMARY KEY,
          account_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          created_at timestamptz NOT NULL
        );
      `,
    },
    {
      version: 2,
      name: 'wallets by customer',
      sql: `
        -- The provisioned wallets of a customer: a change of the customer's email or phone changes their OTP credentials.
        CREATE TABLE {{schema}}.wallets (
          account_id text PRIMARY KEY,
          customer_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION'))
        );
        CREATE INDEX wallets_customer_idx ON {{schema}}.wallets (customer_id);
      `,
    },
    {
      version: 3,
      name: 'delegated keys',
      sql: `
        -- Delegated keys of card funding sources, every status, for GET /auth/delegated-keys (by account, funding
        -- source or id). The wallet's stream is the truth: no private key here, and signing reads the stream.
        CREATE TABLE {{schema}}.delegated_keys (
          id text PRIMARY KEY,
          account_id text NOT NULL,
          card_id text NOT NULL,
          funding_source_id text NOT NULL,
          public_key text NOT NULL,
          nickname text NOT NULL,
          status text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE', 'REVOKED')),
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX delegated_keys_account_idx ON {{schema}}.delegated_keys (account_id, created_at);
        CREATE INDEX delegated_keys_funding_source_idx ON {{schema}}.delegated_keys (funding_source_id, created_at);
        -- The decider keeps one ACTIVE key per funding source; this backs it.
        CREATE UNIQUE INDEX delegated_keys_one_active_idx ON {{schema}}.delegated_keys (funding_source_id) WHERE status = 'ACTIVE';
      `,
    },
  ],
};
