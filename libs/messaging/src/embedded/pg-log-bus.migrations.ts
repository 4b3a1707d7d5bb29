import { legacyCheckpointCursorSql, type MigrationSet } from '@payments/eventsourcing';

/**
 * Tables of the embedded bus, in their own schema (default `bus`). `messages` is an append-only log read by
 * the xmin rule of DESIGN §4 (hence `transaction_id`); `consumer_positions` is each group's place in a topic.
 */
export const pgLogBusMigrations: MigrationSet = {
  module: 'messaging',
  migrations: [
    {
      version: 1,
      name: 'pg_log_bus',
      sql: `
        CREATE TABLE {{schema}}.messages (
          position bigserial PRIMARY KEY,
          topic text NOT NULL,
          key text,
          event_id text NOT NULL,
          envelope jsonb NOT NULL,
          headers jsonb NOT NULL DEFAULT '{}'::jsonb,
          transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX messages_topic_position_idx ON {{schema}}.messages (topic, position);
        CREATE TABLE {{schema}}.consumer_positions (
          group_name text NOT NULL,
          topic text NOT NULL,
          position bigint NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (group_name, topic)
        );
      `,
    },
    {
      // Consumers read and store positions in (transaction_id, position) order (log-reader.ts of eventsourcing);
      // stored positions move to a cursor before anything the position-only reader may have skipped.
      version: 2,
      name: 'log_cursor_positions',
      sql: `
        CREATE INDEX messages_topic_log_order_idx ON {{schema}}.messages (topic, transaction_id, position);
        DROP INDEX {{schema}}.messages_topic_position_idx;
        ALTER TABLE {{schema}}.consumer_positions ADD COLUMN transaction_id xid8 NOT NULL DEFAULT '0';
        UPDATE {{schema}}.consumer_positions p
           SET transaction_id = coalesce(${legacyCheckpointCursorSql('{{schema}}.messages', 'position', 'p.position', 'AND topic = p.topic')}, '0'::xid8),
               position = 0
         WHERE p.position > 0;
      `,
    },
  ],
};
