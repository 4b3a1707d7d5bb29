import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the payments service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const paymentsMigrations: MigrationSet = {
  module: 'payments',
  migrations: [
    {
      version: 1,
      name: 'transactions',
      sql: `
        CREATE TABLE {{schema}}.transactions (
          transaction_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          type text NOT NULL CHECK (type IN ('INCOMING', 'OUTGOING')),
          status text NOT NULL,
          customer_id text,
          source_account_id text,
          destination_account_id text,
          quote_id text,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX transactions_platform_idx ON {{schema}}.transactions (platform_id, mode, transaction_id COLLATE "C");
        CREATE INDEX transactions_customer_idx ON {{schema}}.transactions (platform_id, mode, customer_id);
        CREATE INDEX transactions_source_idx ON {{schema}}.transactions (source_account_id);
        CREATE INDEX transactions_destination_idx ON {{schema}}.transactions (destination_account_id);
      `,
    },
  ],
};
