import { MigrationSet } from '@payments/eventsourcing';

/**
 * The rails' bookkeeping in the payments schema (docs/rails.md). A payment handed to a connector is one
 * `rail_payments` row, keyed by the transaction (or prenote) id, so a retried submission finds it; a file connector
 * sets its `file_id` once, in the transaction that claims it for a file, so it is in exactly one file. Outcomes (a
 * settlement, a rejection, a return) are rows keyed by payment and kind, so an imported file or a callback seen twice
 * records once; each is applied to its transaction by a durable timer. Imported files are unique by content.
 */
export const railsMigrations: MigrationSet = {
  module: 'rails',
  migrations: [
    {
      version: 1,
      name: 'rails',
      sql: `
        CREATE SEQUENCE {{schema}}.rail_reference_seq;
        CREATE TABLE {{schema}}.rail_payments (
          payment_id text PRIMARY KEY,
          connector_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          kind text NOT NULL CHECK (kind IN ('CREDIT', 'DEBIT', 'PRENOTE')),
          payment_rail text NOT NULL,
          currency text NOT NULL,
          amount bigint NOT NULL CHECK (amount >= 0),
          external_account_id text NOT NULL,
          sequence bigint NOT NULL,
          rail_reference text NOT NULL,
          rail_order jsonb NOT NULL,
          status text NOT NULL CHECK (status IN ('SUBMITTED', 'FILED', 'SENT', 'SETTLED', 'REJECTED', 'RETURNED')),
          file_id text,
          provider_reference text,
          last_sequence bigint,
          settles_at timestamptz,
          submitted_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (connector_id, rail_reference)
        );
        CREATE INDEX rail_payments_pending_idx ON {{schema}}.rail_payments (connector_id, sequence) WHERE status = 'SUBMITTED';
        CREATE INDEX rail_payments_file_idx ON {{schema}}.rail_payments (file_id, sequence) WHERE file_id IS NOT NULL;
        CREATE INDEX rail_payments_open_idx ON {{schema}}.rail_payments (submitted_at) WHERE status IN ('SUBMITTED', 'FILED', 'SENT');
        CREATE TABLE {{schema}}.rail_files (
          file_id text PRIMARY KEY,
          connector_id text NOT NULL,
          direction text NOT NULL CHECK (direction IN ('OUTBOUND', 'INBOUND')),
          format text NOT NULL,
          name text NOT NULL,
          status text NOT NULL CHECK (status IN ('WRITING', 'WRITTEN', 'IMPORTED')),
          sha256 text,
          size_bytes bigint,
          entry_count integer NOT NULL DEFAULT 0,
          total_amount bigint NOT NULL DEFAULT 0,
          meta jsonb NOT NULL DEFAULT '{}'::jsonb,
          imported_by text,
          -- an imported file's bytes as received (outbound files are in the outbox directory)
          content bytea,
          created_at timestamptz NOT NULL DEFAULT now(),
          written_at timestamptz
        );
        CREATE UNIQUE INDEX rail_files_name_idx ON {{schema}}.rail_files (connector_id, direction, name);
        CREATE UNIQUE INDEX rail_files_import_idx ON {{schema}}.rail_files (sha256) WHERE direction = 'INBOUND';
        CREATE INDEX rail_files_list_idx ON {{schema}}.rail_files (created_at DESC, file_id);
        CREATE TABLE {{schema}}.rail_outcomes (
          outcome_id text PRIMARY KEY,
          payment_id text NOT NULL,
          kind text NOT NULL CHECK (kind IN ('SETTLED', 'REJECTED', 'RETURNED')),
          failure_reason text,
          rail_code text,
          source text NOT NULL,
          recorded_at timestamptz NOT NULL DEFAULT now(),
          applied_at timestamptz
        );
        CREATE INDEX rail_outcomes_payment_idx ON {{schema}}.rail_outcomes (payment_id);
        CREATE TABLE {{schema}}.rail_exceptions (
          exception_id text PRIMARY KEY,
          connector_id text NOT NULL,
          file_id text,
          payment_id text,
          kind text NOT NULL,
          message text NOT NULL,
          detail jsonb NOT NULL DEFAULT '{}'::jsonb,
          status text NOT NULL DEFAULT 'OPEN' CHECK (status IN ('OPEN', 'RESOLVED')),
          resolution text,
          resolved_by text,
          resolved_at timestamptz,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX rail_exceptions_open_idx ON {{schema}}.rail_exceptions (created_at, exception_id) WHERE status = 'OPEN';
      `,
    },
    {
      version: 2,
      name: 'incoming_credits',
      sql: `
        -- Money that arrived at a deposit account and was credited to an internal account (incoming-credits.ts): one
        -- row per bank entry, so a statement imported twice, or the same entry in two files, credits once.
        CREATE TABLE {{schema}}.rail_incoming_credits (
          credit_key text PRIMARY KEY,
          transaction_id text NOT NULL UNIQUE,
          connector_id text NOT NULL,
          platform_id text NOT NULL,
          account_id text NOT NULL,
          amount bigint NOT NULL CHECK (amount > 0),
          currency text NOT NULL,
          file_id text,
          exception_id text,
          matched_by text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        -- What an operator decided about an unmatched credit: ASSIGNED (credited to an account) or TO_BE_RETURNED.
        ALTER TABLE {{schema}}.rail_exceptions ADD COLUMN disposition text CHECK (disposition IN ('ASSIGNED', 'TO_BE_RETURNED')), ADD COLUMN transaction_id text;
      `,
    },
    {
      // Outcomes in order (docs/rails.md): the order they were recorded in, under the payment row's lock, and the
      // lease of the one writer applying a payment's outcomes. Existing outcomes are numbered as they were recorded.
      version: 3,
      name: 'rail_outcomes_in_order',
      sql: `
        ALTER TABLE {{schema}}.rail_outcomes ADD COLUMN seq bigint;
        CREATE SEQUENCE {{schema}}.rail_outcomes_seq OWNED BY {{schema}}.rail_outcomes.seq;
        UPDATE {{schema}}.rail_outcomes o SET seq = n.seq FROM (SELECT outcome_id, nextval('{{schema}}.rail_outcomes_seq') AS seq FROM (SELECT outcome_id FROM {{schema}}.rail_outcomes ORDER BY recorded_at, outcome_id) ordered) n WHERE o.outcome_id = n.outcome_id;
        ALTER TABLE {{schema}}.rail_outcomes ALTER COLUMN seq SET DEFAULT nextval('{{schema}}.rail_outcomes_seq'), ALTER COLUMN seq SET NOT NULL;
        CREATE INDEX rail_outcomes_unapplied_idx ON {{schema}}.rail_outcomes (payment_id, seq) WHERE applied_at IS NULL;
        ALTER TABLE {{schema}}.rail_payments ADD COLUMN applier text, ADD COLUMN applier_until timestamptz;
      `,
    },
  ],
};
