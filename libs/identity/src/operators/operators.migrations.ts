import { MigrationSet } from '@payments/eventsourcing';

/** Operators (their credentials as keyed hashes) and the audit log gathered from every service's topic. */
export const operatorsMigrations: MigrationSet = {
  module: 'operators',
  migrations: [
    {
      version: 1,
      name: 'operators_and_audit_log',
      sql: `
        CREATE TABLE {{schema}}.operators (
          operator_id text PRIMARY KEY,
          name text NOT NULL,
          role text NOT NULL CHECK (role IN ('VIEWER', 'REVIEWER', 'ADMIN')),
          client_id text NOT NULL UNIQUE,
          secret_hash text NOT NULL,
          created_at timestamptz NOT NULL,
          disabled_at timestamptz
        );
        CREATE TABLE {{schema}}.audit_events (
          action_id text PRIMARY KEY,
          service text NOT NULL,
          operator_id text NOT NULL,
          action text NOT NULL,
          target_type text NOT NULL,
          target_id text NOT NULL,
          platform_id text,
          occurred_at timestamptz NOT NULL,
          body jsonb NOT NULL
        );
        CREATE INDEX audit_events_operator_idx ON {{schema}}.audit_events (operator_id, action_id COLLATE "C");
        CREATE INDEX audit_events_target_idx ON {{schema}}.audit_events (target_id, action_id COLLATE "C");
        CREATE INDEX audit_events_platform_idx ON {{schema}}.audit_events (platform_id, action_id COLLATE "C");
      `,
    },
  ],
};
