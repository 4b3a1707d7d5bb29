import { MigrationSet } from '@payments/eventsourcing';

/** The operator's fee schedules (projections of the fee schedule streams); their own module, numbered apart. */
export const feeScheduleMigrations: MigrationSet = {
  module: 'quoting-fees',
  migrations: [
    {
      version: 1,
      name: 'fee schedules',
      sql: `
        -- The schedules in force, one row per scope (SERVICE: platform or deployment, corridor or default; NETWORK:
        -- platform or deployment, currency and network). platform_id null: the whole deployment.
        CREATE TABLE {{schema}}.fee_schedules (
          schedule_id text PRIMARY KEY,
          kind text NOT NULL CHECK (kind IN ('SERVICE', 'NETWORK')),
          platform_id text,
          scope jsonb NOT NULL,
          fees jsonb NOT NULL,
          version integer NOT NULL,
          updated_at timestamptz NOT NULL,
          updated_by jsonb NOT NULL
        );
        CREATE INDEX fee_schedules_kind_platform_idx ON {{schema}}.fee_schedules (kind, platform_id);
        -- Every change, append-only: the values each version set (or had when removed), who, when and why.
        CREATE TABLE {{schema}}.fee_schedule_versions (
          position bigserial PRIMARY KEY,
          schedule_id text NOT NULL,
          version integer NOT NULL,
          kind text NOT NULL CHECK (kind IN ('SERVICE', 'NETWORK')),
          platform_id text,
          change text NOT NULL CHECK (change IN ('SET', 'REMOVED')),
          scope jsonb NOT NULL,
          fees jsonb NOT NULL,
          changed_by jsonb NOT NULL,
          reason text,
          changed_at timestamptz NOT NULL,
          UNIQUE (schedule_id, version)
        );
        CREATE INDEX fee_schedule_versions_kind_idx ON {{schema}}.fee_schedule_versions (kind, platform_id, position);
      `,
    },
  ],
};
