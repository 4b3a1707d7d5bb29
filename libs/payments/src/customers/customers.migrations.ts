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
    {
      version: 2,
      name: 'customers_kyc_status',
      sql: `
        -- The customer's kycStatus (kybStatus for businesses), from CustomerCreated.v1 (UNVERIFIED) and
        -- CustomerKycStatusChanged.v1: production money moves only for APPROVED customers. Rows projected before this
        -- column existed stay NULL (not known) and are refused until identity's next status change reaches them.
        ALTER TABLE {{schema}}.customers ADD COLUMN kyc_status text;
        ALTER TABLE {{schema}}.customers ADD COLUMN customer_type text;
      `,
    },
  ],
};
