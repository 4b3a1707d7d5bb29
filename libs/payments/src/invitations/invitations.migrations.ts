import { MigrationSet } from '@payments/eventsourcing';

/** The invitations read model (projection of the `Invitation:<code>` streams); its own module, numbered apart. */
export const invitationsMigrations: MigrationSet = {
  module: 'payments-invitations',
  migrations: [
    {
      version: 1,
      name: 'invitations',
      sql: `
        CREATE TABLE {{schema}}.invitations (
          code text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          status text NOT NULL CHECK (status IN ('PENDING', 'CLAIMED', 'EXPIRED', 'CANCELLED')),
          inviter_customer_id text NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX invitations_platform_idx ON {{schema}}.invitations (platform_id, mode, created_at);
      `,
    },
  ],
};
