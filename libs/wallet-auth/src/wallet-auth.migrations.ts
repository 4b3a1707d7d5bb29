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
  ],
};
