import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the payments service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const paymentsMigrations: MigrationSet = {
  module: 'payments',
  migrations: [
    {
      version: 1,
      name: 'transactions',
      sql: `
        CREATE TABLE {{schema}}.transactions (
          transaction_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          type text NOT NULL CHECK (type IN ('INCOMING', 'OUTGOING')),
          status text NOT NULL,
          customer_id text,
          source_account_id text,
          destination_account_id text,
          quote_id text,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX transactions_platform_idx ON {{schema}}.transactions (platform_id, mode, transaction_id COLLATE "C");
        CREATE INDEX transactions_customer_idx ON {{schema}}.transactions (platform_id, mode, customer_id);
        CREATE INDEX transactions_source_idx ON {{schema}}.transactions (source_account_id);
        CREATE INDEX transactions_destination_idx ON {{schema}}.transactions (destination_account_id);
      `,
    },
    {
      // GET /transactions' published filters. A side's identifier is its account id or its UMA address. The bodies
      // of existing rows take the public shape of this version (transaction.view.ts): optional fields without a
      // value left out, failureReason within the published enums (our finer reason as failureDetail).
      version: 2,
      name: 'transactions_published_filters',
      sql: `
        ALTER TABLE {{schema}}.transactions RENAME COLUMN source_account_id TO sender_identifier;
        ALTER TABLE {{schema}}.transactions RENAME COLUMN destination_account_id TO receiver_identifier;
        ALTER INDEX {{schema}}.transactions_source_idx RENAME TO transactions_sender_idx;
        ALTER INDEX {{schema}}.transactions_destination_idx RENAME TO transactions_receiver_idx;
        ALTER TABLE {{schema}}.transactions ADD COLUMN platform_customer_id text, ADD COLUMN reference text;
        UPDATE {{schema}}.transactions SET
          sender_identifier = coalesce(sender_identifier, body->'source'->>'umaAddress'),
          receiver_identifier = coalesce(receiver_identifier, body->'destination'->>'umaAddress'),
          platform_customer_id = body->>'platformCustomerId',
          reference = body->'reconciliationInstructions'->>'reference',
          body = (body - ARRAY(SELECT key FROM jsonb_each(body) WHERE value = 'null'::jsonb AND key IN ('quoteId', 'description', 'failureReason', 'refund', 'settledAt', 'rateDetails')))
            || CASE body->>'failureReason'
                 WHEN 'INSUFFICIENT_FUNDS' THEN jsonb_build_object('failureReason', CASE type WHEN 'INCOMING' THEN 'COLLECTION_FAILED' ELSE 'QUOTE_EXECUTION_FAILED' END, 'failureDetail', 'INSUFFICIENT_FUNDS')
                 WHEN 'ACCOUNT_CLOSED' THEN jsonb_build_object('failureReason', CASE type WHEN 'INCOMING' THEN 'COLLECTION_FAILED' ELSE 'ACCOUNT_INVALID' END, 'failureDetail', 'ACCOUNT_CLOSED')
                 WHEN 'RAIL_NOT_AVAILABLE' THEN jsonb_build_object('failureReason', 'QUOTE_EXECUTION_FAILED', 'failureDetail', 'RAIL_NOT_AVAILABLE')
                 ELSE '{}'::jsonb
               END;
        CREATE INDEX transactions_platform_customer_idx ON {{schema}}.transactions (platform_id, mode, platform_customer_id);
        CREATE INDEX transactions_reference_idx ON {{schema}}.transactions (platform_id, mode, reference);
      `,
    },
    {
      // Card transactions (type CARD, ids `CardTransaction:<uuid>`) join the read model from the cards service's
      // CardTransactionUpdated.v1 (card-events.consumer.ts). `list_key` orders GET /transactions by creation time
      // whatever the id's prefix (`<createdAt UTC, ms> <id>`: fixed width, unique, never changes; see
      // transaction-list-key.ts); `source_stream_version` is the cards stream version of the event a CARD row was
      // last written from, the tie-breaker when two updates carry the same updatedAt (null for payments' own rows).
      version: 3,
      name: 'card_transactions',
      sql: `
        ALTER TABLE {{schema}}.transactions DROP CONSTRAINT transactions_type_check;
        ALTER TABLE {{schema}}.transactions ADD CONSTRAINT transactions_type_check CHECK (type IN ('INCOMING', 'OUTGOING', 'CARD'));
        ALTER TABLE {{schema}}.transactions ADD COLUMN list_key text, ADD COLUMN source_stream_version bigint;
        UPDATE {{schema}}.transactions SET list_key = to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ' ' || transaction_id;
        ALTER TABLE {{schema}}.transactions ALTER COLUMN list_key SET NOT NULL;
        DROP INDEX {{schema}}.transactions_platform_idx;
        CREATE INDEX transactions_list_idx ON {{schema}}.transactions (platform_id, mode, list_key COLLATE "C");
      `,
    },
  ],
};
