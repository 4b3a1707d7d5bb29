import { MigrationSet } from '@payments/eventsourcing';

/** Hosted KYC links (module `identity-kyc-links`): only the token's keyed hash is stored. */
export const kycLinkMigrations: MigrationSet = {
  module: 'identity-kyc-links',
  migrations: [
    {
      version: 1,
      name: 'kyc_links',
      sql: `
        CREATE TABLE {{schema}}.kyc_links (
          link_id text PRIMARY KEY,
          secret_hash text NOT NULL UNIQUE,
          customer_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          expires_at timestamptz NOT NULL,
          opened_at timestamptz,
          created_at timestamptz NOT NULL
        );
        CREATE INDEX kyc_links_customer_idx ON {{schema}}.kyc_links (customer_id);
      `,
    },
  ],
};
