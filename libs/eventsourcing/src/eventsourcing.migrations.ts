import { legacyCheckpointCursorSql } from './log-reader';
import { MigrationSet } from './migrations';

/** Tables every service schema gets: the event store (also the outbox), checkpoints, inbox and durable timers. */
export const eventsourcingMigrations: MigrationSet = {
  module: 'eventsourcing',
  migrations: [
    {
      version: 1,
      name: 'event_store',
      sql: `
        CREATE TABLE {{schema}}.events (
          global_position bigserial PRIMARY KEY,
          event_id uuid NOT NULL UNIQUE,
          stream_id text NOT NULL,
          stream_version integer NOT NULL CHECK (stream_version > 0),
          type text NOT NULL,
          platform_id text,
          data jsonb NOT NULL,
          metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
          transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
          created_at timestamptz NOT NULL DEFAULT now(),
          CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version)
        );
        CREATE TABLE {{schema}}.checkpoints (
          name text PRIMARY KEY,
          position bigint NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE {{schema}}.inbox (
          consumer text NOT NULL,
          event_id text NOT NULL,
          processed_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (consumer, event_id)
        );
        CREATE TABLE {{schema}}.timers (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          stream_id text,
          platform_id text,
          payload jsonb NOT NULL DEFAULT '{}'::jsonb,
          due_at timestamptz NOT NULL,
          fired_at timestamptz,
          attempts integer NOT NULL DEFAULT 0,
          last_error text,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX timers_due_idx ON {{schema}}.timers (due_at) WHERE fired_at IS NULL;
      `,
    },
    {
      // Readers order and checkpoint by (transaction_id, position): see log-reader.ts. Existing checkpoints move to
      // a cursor before anything the position-only reader may have skipped, so the relay republishes those events.
      version: 2,
      name: 'log_cursor_checkpoints',
      sql: `
        CREATE INDEX events_log_order_idx ON {{schema}}.events (transaction_id, global_position);
        ALTER TABLE {{schema}}.checkpoints ADD COLUMN transaction_id xid8 NOT NULL DEFAULT '0';
        UPDATE {{schema}}.checkpoints c
           SET transaction_id = coalesce(${legacyCheckpointCursorSql('{{schema}}.events', 'global_position', 'c.position')}, '0'::xid8),
               position = 0
         WHERE c.position > 0;
      `,
    },
    {
      // What a service did for a client's Idempotency-Key, claimed in the transaction of the effect's first event
      // (idempotency-claims.ts): a retry after a crash finds the original resource instead of making a second one.
      version: 3,
      name: 'idempotency_claims',
      sql: `
        CREATE TABLE {{schema}}.idempotency_claims (
          platform_id text NOT NULL,
          mode text NOT NULL,
          idempotency_key text NOT NULL,
          request_hash text NOT NULL,
          operation text NOT NULL,
          resource_id text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (platform_id, mode, idempotency_key)
        );
        CREATE INDEX idempotency_claims_created_idx ON {{schema}}.idempotency_claims (created_at);
      `,
    },
    {
      // Pollers lease timers instead of holding a row lock across the handler (timers.ts): a claim sets
      // locked_until, and a timer whose poller died fires again once it has passed. timers_due_idx still serves the
      // claim: the leased rows it filters out are at most the handlers in flight.
      version: 4,
      name: 'timer_leases',
      sql: `ALTER TABLE {{schema}}.timers ADD COLUMN locked_until timestamptz;`,
    },
    {
      // The trace context a timer was scheduled in (timers.ts): its handler's span continues that trace, so a
      // transfer's rail steps and the webhooks they cause stay in the trace of the request that started it.
      version: 5,
      name: 'timer_trace_context',
      sql: `ALTER TABLE {{schema}}.timers ADD COLUMN traceparent text;`,
    },
  ],
};
