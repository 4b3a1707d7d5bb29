import { MigrationSet } from '@payments/eventsourcing';

/** The dispatcher's durable queue (its inbox and event-store tables come from eventsourcingMigrations). */
export const webhooksMigrations: MigrationSet = {
  module: 'webhooks',
  migrations: [
    {
      version: 1,
      name: 'deliveries',
      sql: `
        -- One row per webhook (one per source event, or per TEST); retries reuse the row and its webhook id.
        CREATE TABLE {{schema}}.deliveries (
          webhook_id text PRIMARY KEY,
          event_id text UNIQUE, -- the domain event it stands for (null for a sandbox TEST)
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          type text NOT NULL,
          data_json text NOT NULL, -- text, not jsonb: the resource keeps its key order in the body
          retryable boolean NOT NULL,
          status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'REJECTED', 'FAILED', 'DEAD_LETTER')),
          attempts integer NOT NULL DEFAULT 0,
          next_attempt_at timestamptz NOT NULL DEFAULT now(),
          lease_token uuid,
          lease_until timestamptz,
          retry_window_from timestamptz NOT NULL DEFAULT now(), -- the 7-day budget counts from here (reset on redelivery)
          last_status integer,
          last_error text,
          dead_reason text,
          created_at timestamptz NOT NULL DEFAULT now(),
          finished_at timestamptz
        );
        CREATE INDEX deliveries_due_idx ON {{schema}}.deliveries (next_attempt_at) WHERE status = 'PENDING';
        CREATE INDEX deliveries_dead_idx ON {{schema}}.deliveries (created_at) WHERE status = 'DEAD_LETTER';
        -- Every attempt, for operators and platforms' support questions.
        CREATE TABLE {{schema}}.delivery_attempts (
          attempt_id bigserial PRIMARY KEY,
          webhook_id text NOT NULL REFERENCES {{schema}}.deliveries (webhook_id),
          attempt integer NOT NULL,
          url text,
          response_status integer,
          latency_ms integer NOT NULL,
          response_excerpt text, -- at most 1 KB
          error text,
          at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX delivery_attempts_webhook_idx ON {{schema}}.delivery_attempts (webhook_id, attempt);
        -- Which platform and mode a PlatformConfig stream belongs to (PlatformConfigUpdated.v1 carries neither).
        CREATE TABLE {{schema}}.config_streams (
          config_stream_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL
        );
      `,
    },
    {
      version: 2,
      name: 'delivery_trace_context',
      // The trace context of the consumer that queued the webhook: its attempts, however late, join that trace.
      sql: `ALTER TABLE {{schema}}.deliveries ADD COLUMN traceparent text;`,
    },
    {
      version: 3,
      name: 'delivery_listing',
      sql: `
        -- GET /webhook-deliveries: the id of the resource in data (a transaction, a customer…), set when queued, so a
        -- resource's webhooks are found by index instead of parsing every row's body.
        ALTER TABLE {{schema}}.deliveries ADD COLUMN resource_id text;
        UPDATE {{schema}}.deliveries SET resource_id = data_json::jsonb ->> 'id'
         WHERE data_json LIKE '{%' AND jsonb_typeof(data_json::jsonb -> 'id') = 'string';
        -- A platform's deliveries in one mode, newest first (webhook ids are UUIDv7: they sort by creation in byte order).
        CREATE INDEX deliveries_platform_idx ON {{schema}}.deliveries (platform_id, mode, webhook_id COLLATE "C");
        CREATE INDEX deliveries_resource_idx ON {{schema}}.deliveries (platform_id, mode, resource_id, webhook_id COLLATE "C") WHERE resource_id IS NOT NULL;
      `,
    },
  ],
};
