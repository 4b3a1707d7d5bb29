import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the quoting service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const quotingMigrations: MigrationSet = {
  module: 'quoting',
  migrations: [
    {
      version: 1,
      name: 'quotes',
      sql: `
        CREATE TABLE {{schema}}.quotes (
          quote_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          status text NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX quotes_platform_idx ON {{schema}}.quotes (platform_id, mode, quote_id COLLATE "C");
        -- The platforms' currency configs (limits), from identity's PlatformConfig events (keyed by the config stream).
        CREATE TABLE {{schema}}.platform_currency_configs (
          config_stream_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          configs jsonb NOT NULL
        );
        CREATE INDEX platform_currency_configs_platform_idx ON {{schema}}.platform_currency_configs (platform_id, mode);
      `,
    },
  ],
};
