import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the identity service (the event store tables come from eventsourcingMigrations). */
export const identityMigrations: MigrationSet = {
  module: 'identity',
  migrations: [
    {
      version: 1,
      name: 'platforms_credentials_configs',
      sql: `
        CREATE TABLE {{schema}}.platforms (
          platform_id text PRIMARY KEY,
          name text NOT NULL,
          created_at timestamptz NOT NULL
        );
        CREATE TABLE {{schema}}.credentials (
          client_id text PRIMARY KEY,
          platform_id text NOT NULL REFERENCES {{schema}}.platforms (platform_id),
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          name text NOT NULL,
          permissions text[] NOT NULL,
          secret_hash text NOT NULL,
          created_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE INDEX credentials_platform_idx ON {{schema}}.credentials (platform_id, mode);
        CREATE TABLE {{schema}}.platform_configs (
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          config_id text NOT NULL UNIQUE,
          uma_domain text,
          webhook_endpoint text,
          supported_currencies jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          PRIMARY KEY (platform_id, mode)
        );
      `,
    },
  ],
};
