import { MigrationSet } from '@payments/eventsourcing';

/** The verifications read model (module `identity-verifications`); beneficial owners use identity migration 2. */
export const verificationsMigrations: MigrationSet = {
  module: 'identity-verifications',
  migrations: [
    {
      version: 1,
      name: 'verifications',
      sql: `
        CREATE TABLE {{schema}}.verifications (
          verification_id text PRIMARY KEY,
          customer_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          status text NOT NULL,
          body jsonb NOT NULL, -- the Verification as the API returns it
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        -- One verification case per customer: resubmissions continue it. Also the backstop against two first
        -- submissions racing (the service serialises them on an advisory lock).
        CREATE UNIQUE INDEX verifications_customer_key ON {{schema}}.verifications (customer_id);
        CREATE INDEX verifications_list_idx ON {{schema}}.verifications (platform_id, mode, verification_id COLLATE "C");
      `,
    },
  ],
};
