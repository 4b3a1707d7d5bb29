import { MigrationSet } from '@payments/eventsourcing';

/** The gateway's tables: responses of POSTs sent with an Idempotency-Key, per platform and mode, and its live processes. */
export const gatewayMigrations: MigrationSet = {
  module: 'gateway',
  migrations: [
    {
      version: 1,
      name: 'idempotency_keys',
      sql: `
        CREATE TABLE {{schema}}.idempotency_keys (
          platform_id text NOT NULL,
          mode text NOT NULL,
          idempotency_key text NOT NULL,
          request_hash text NOT NULL,
          state text NOT NULL CHECK (state IN ('IN_FLIGHT', 'DONE')),
          locked_until timestamptz,
          response_status integer,
          response_body jsonb,
          created_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz NOT NULL,
          PRIMARY KEY (platform_id, mode, idempotency_key)
        );
        CREATE INDEX idempotency_keys_expiry_idx ON {{schema}}.idempotency_keys (expires_at);
      `,
    },
    {
      // Which gateway process runs an IN_FLIGHT request, and which processes are alive: a retry after a crash need
      // not wait out the lease (IdempotencyStore.claim).
      version: 2,
      name: 'idempotency_owners',
      sql: `
        ALTER TABLE {{schema}}.idempotency_keys ADD COLUMN owner text;
        CREATE TABLE {{schema}}.gateway_instances (
          instance_id text PRIMARY KEY,
          heartbeat_at timestamptz NOT NULL DEFAULT now()
        );
      `,
    },
    {
      // Which attempt holds an IN_FLIGHT key: the release and the answer of an attempt touch only its own claim, never
      // that of a retry that took the key over while the first attempt's process looked dead (IdempotencyStore).
      version: 3,
      name: 'idempotency_claims',
      sql: `ALTER TABLE {{schema}}.idempotency_keys ADD COLUMN claim_id uuid;`,
    },
  ],
};
