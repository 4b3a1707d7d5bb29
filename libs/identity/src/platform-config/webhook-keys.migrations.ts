import { MigrationSet } from '@payments/eventsourcing';

/** Webhook signing material per platform and mode, and the endpoint's delivery status in the config view. */
export const webhookKeysMigrations: MigrationSet = {
  module: 'identity-webhooks',
  migrations: [
    {
      version: 1,
      name: 'webhook_keys',
      sql: `
        ALTER TABLE {{schema}}.platform_configs ADD COLUMN webhook_endpoint_status text NOT NULL DEFAULT 'ACTIVE'
          CHECK (webhook_endpoint_status IN ('ACTIVE', 'DISABLED'));
        -- Secrets, not events: created on first need and never in the log, so never on the bus.
        CREATE TABLE {{schema}}.webhook_keys (
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          public_key_pem text NOT NULL,
          private_key_pem text NOT NULL,
          secret text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (platform_id, mode)
        );
      `,
    },
  ],
};
