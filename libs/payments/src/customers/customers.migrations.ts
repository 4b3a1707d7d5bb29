import { MigrationSet } from '@payments/eventsourcing';

/** Payments' copy of identity's customers (its own module, so it never touches payments.migrations.ts). */
export const paymentsDirectoryMigrations: MigrationSet = {
  module: 'payments-directory',
  migrations: [
    {
      version: 1,
      name: 'customers',
      sql: `
        -- What payments needs to know of customers (UMA address, currencies), from identity's customer events.
        CREATE TABLE {{schema}}.customers (
          customer_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          uma_address text,
          platform_customer_id text,
          currencies jsonb NOT NULL DEFAULT '[]'::jsonb,
          deleted boolean NOT NULL DEFAULT false
        );
        -- UMA addresses compare case-insensitively; identity keeps them unique per platform and mode.
        CREATE INDEX customers_uma_idx ON {{schema}}.customers (platform_id, mode, lower(uma_address));
      `,
    },
  ],
};
