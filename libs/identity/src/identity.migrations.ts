import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the identity service (the event store tables come from eventsourcingMigrations). */
export const identityMigrations: MigrationSet = {
  module: 'identity',
  migrations: [
    {
      version: 1,
      name: 'platforms_tokens_configs',
      sql: `
        CREATE TABLE {{schema}}.platforms (
          platform_id text PRIMARY KEY,
          name text NOT NULL,
          created_at timestamptz NOT NULL
        );
        CREATE TABLE {{schema}}.api_tokens (
          token_id text PRIMARY KEY,
          client_id text NOT NULL UNIQUE,
          platform_id text NOT NULL REFERENCES {{schema}}.platforms (platform_id),
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          name text NOT NULL,
          permissions text[] NOT NULL,
          secret_hash text NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE INDEX api_tokens_list_idx ON {{schema}}.api_tokens (platform_id, mode, token_id COLLATE "C") WHERE deleted_at IS NULL;
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
