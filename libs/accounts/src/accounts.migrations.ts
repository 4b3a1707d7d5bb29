import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the accounts service (its event store tables come from eventsourcingMigrations). */
export const accountsMigrations: MigrationSet = {
  module: 'accounts',
  migrations: [
    {
      version: 1,
      name: 'ledger',
      sql: `
        CREATE TABLE {{schema}}.ledger_accounts (
          account_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          owner text NOT NULL CHECK (owner IN ('CUSTOMER', 'PLATFORM', 'SYSTEM')),
          customer_id text,
          currency text NOT NULL,
          purpose text NOT NULL,
          total bigint NOT NULL DEFAULT 0,
          held bigint NOT NULL DEFAULT 0,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          CHECK (owner = 'SYSTEM' OR (total >= 0 AND total - held >= 0))
        );
        CREATE INDEX ledger_accounts_owner_idx ON {{schema}}.ledger_accounts (platform_id, mode, owner, customer_id, account_id COLLATE "C");
        CREATE TABLE {{schema}}.journal_postings (
          entry_id text NOT NULL,
          account_id text NOT NULL REFERENCES {{schema}}.ledger_accounts (account_id),
          platform_id text NOT NULL,
          mode text NOT NULL,
          currency text NOT NULL,
          amount bigint NOT NULL CHECK (amount <> 0),
          kind text NOT NULL,
          reference text NOT NULL,
          created_at timestamptz NOT NULL,
          PRIMARY KEY (entry_id, account_id)
        );
        CREATE INDEX journal_postings_account_idx ON {{schema}}.journal_postings (account_id);
        -- The platforms' configured currencies, from identity's PlatformConfig events (keyed by the config stream).
        CREATE TABLE {{schema}}.platform_currencies (
          config_stream_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          currencies text[] NOT NULL
        );
      `,
    },
    {
      version: 2,
      name: 'journal_entries',
      sql: `
        -- One row per entry id (the caller's reference): a replay finds it, the same id with other legs is refused,
        -- and an entry can be reversed once. Written in the entry's transaction, before its legs.
        CREATE TABLE {{schema}}.journal_entries (
          platform_id text NOT NULL,
          mode text NOT NULL,
          entry_id text NOT NULL,
          kind text NOT NULL,
          legs text NOT NULL,
          reverses text,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (platform_id, mode, entry_id)
        );
        CREATE UNIQUE INDEX journal_entries_reverses_key ON {{schema}}.journal_entries (platform_id, mode, reverses) WHERE reverses IS NOT NULL;
        INSERT INTO {{schema}}.journal_entries (platform_id, mode, entry_id, kind, legs, reverses, created_at)
          SELECT platform_id, mode, entry_id, min(kind),
                 string_agg(account_id || '=' || amount::text, ',' ORDER BY (account_id || '=' || amount::text) COLLATE "C"),
                 CASE WHEN min(kind) = 'REVERSAL' THEN min(reference) END, min(created_at)
            FROM {{schema}}.journal_postings GROUP BY platform_id, mode, entry_id;
      `,
    },
    {
      version: 3,
      name: 'internal_account_privacy',
      sql: `
        -- An Embedded Wallet's privacy (PATCH /internal-accounts/{id}), projected from its InternalAccountSettings stream.
        ALTER TABLE {{schema}}.ledger_accounts ADD COLUMN private_enabled boolean NOT NULL DEFAULT false;
      `,
    },
    {
      version: 4,
      name: 'ledger_check_runs',
      sql: `
        -- Outcomes of 'npm run admin -- ledger:check' (ledger-check-runs.ts): the service exposes the latest as metrics.
        CREATE TABLE {{schema}}.ledger_check_runs (
          run_id bigserial PRIMARY KEY,
          finished_at timestamptz NOT NULL DEFAULT now(),
          accounts_checked integer NOT NULL,
          violations integer NOT NULL,
          rules text[] NOT NULL DEFAULT '{}' -- the rules violated, each once
        );
      `,
    },
    {
      version: 5,
      name: 'ledger_by_reference',
      sql: `
        -- A transaction's ledger (LedgerRpc.ofReference, reference-ledger.ts): its postings and their reversals by
        -- reference (a reversal's reference is the entry it reverses), and its holds, which live only in the account
        -- streams' events: a placement by its reference, a close by its account and hold id. Partial, so only hold
        -- events pay for the latter two.
        CREATE INDEX journal_postings_reference_idx ON {{schema}}.journal_postings (reference);
        CREATE INDEX events_hold_placed_reference_idx ON {{schema}}.events ((data->>'reference')) WHERE type = 'HoldPlaced.v1';
        CREATE INDEX events_hold_closed_idx ON {{schema}}.events (stream_id, (data->>'holdId')) WHERE type = 'HoldClosed.v1';
      `,
    },
    {
      version: 6,
      name: 'funding_references',
      sql: `
        -- A production internal account's funding instructions (funding-references.ts): the reference code senders
        -- put in a payment to the deposit account, and its virtual account number when the currency has a range.
        -- Allocated once, when the account is first shown; unique across every platform, so an incoming credit
        -- names exactly one account.
        CREATE TABLE {{schema}}.funding_references (
          account_id text PRIMARY KEY,
          platform_id text NOT NULL,
          currency text NOT NULL,
          reference text NOT NULL UNIQUE,
          virtual_account_number text,
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (currency, virtual_account_number)
        );
      `,
    },
  ],
};
