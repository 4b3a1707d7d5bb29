import { MigrationSet } from '@payments/eventsourcing';

/** Production's rate sources (a module of its own beside `quoting`, so its numbers never collide with that one's). */
export const quotingRatesMigrations: MigrationSet = {
  module: 'quoting-rates',
  migrations: [
    {
      version: 1,
      name: 'operator rate table, ECB documents, quote pricing',
      sql: `
        -- The operator rate table: every entry ever set (or withdrawn), never changed; seq orders them.
        CREATE TABLE {{schema}}.operator_rate_entries (
          seq bigserial PRIMARY KEY,
          entry_id text NOT NULL UNIQUE,
          source_currency text NOT NULL,
          destination_currency text NOT NULL,
          kind text NOT NULL CHECK (kind IN ('SET', 'WITHDRAWN')),
          mid_rate text,
          valid_from timestamptz NOT NULL,
          valid_until timestamptz,
          reason text,
          operator_id text NOT NULL,
          operator_name text NOT NULL,
          recorded_at timestamptz NOT NULL,
          CHECK (source_currency <> destination_currency),
          CHECK ((kind = 'SET') = (mid_rate IS NOT NULL AND valid_until IS NOT NULL)),
          CHECK (valid_until IS NULL OR valid_until > valid_from)
        );
        CREATE INDEX operator_rate_entries_pair_idx ON {{schema}}.operator_rate_entries (source_currency, destination_currency, seq DESC);
        CREATE INDEX operator_rate_entries_valid_from_idx ON {{schema}}.operator_rate_entries (valid_from);
        -- History is kept: an entry is never updated or deleted.
        CREATE FUNCTION {{schema}}.operator_rate_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'operator_rate_entries is append-only: set a new entry instead';
        END $$;
        CREATE TRIGGER operator_rate_entries_append_only BEFORE UPDATE OR DELETE ON {{schema}}.operator_rate_entries
          FOR EACH ROW EXECUTE FUNCTION {{schema}}.operator_rate_entries_append_only();

        -- The ECB's daily documents as fetched (units per EUR), one per reference date: a restart keeps the last one.
        CREATE TABLE {{schema}}.ecb_rate_documents (
          id bigserial PRIMARY KEY,
          reference_date date NOT NULL UNIQUE,
          published_at timestamptz NOT NULL,
          per_eur jsonb NOT NULL,
          fetched_at timestamptz NOT NULL,
          source_url text NOT NULL
        );

        -- What priced each quote (source, publication time, derivation): the operator API shows it.
        ALTER TABLE {{schema}}.quotes ADD COLUMN pricing jsonb;
      `,
    },
  ],
};
