import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the cards service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const cardsMigrations: MigrationSet = {
  module: 'cards',
  migrations: [
    {
      version: 1,
      name: 'cards',
      sql: `
        CREATE TABLE {{schema}}.cards (
          card_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          cardholder_id text NOT NULL,
          platform_card_id text NOT NULL,
          state text NOT NULL,
          currency text NOT NULL,
          max_spend bigint,
          -- The ordered bindings (FundingSourceBinding[]): what Authorization Decisioning reads.
          bindings jsonb NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX cards_platform_idx ON {{schema}}.cards (platform_id, mode, card_id COLLATE "C");
        CREATE INDEX cards_cardholder_idx ON {{schema}}.cards (platform_id, mode, cardholder_id);
        CREATE INDEX cards_platform_card_idx ON {{schema}}.cards (platform_id, mode, platform_card_id);
        CREATE TABLE {{schema}}.card_funding_sources (
          card_id text NOT NULL REFERENCES {{schema}}.cards (card_id),
          account_id text NOT NULL,
          funding_source_id text NOT NULL,
          position int NOT NULL,
          embedded_wallet boolean NOT NULL,
          PRIMARY KEY (card_id, account_id)
        );
        CREATE INDEX card_funding_sources_account_idx ON {{schema}}.card_funding_sources (account_id);
        CREATE TABLE {{schema}}.card_transactions (
          transaction_id text PRIMARY KEY,
          card_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL,
          status text NOT NULL,
          account_id text,
          -- What the card network holds for it, seen from the funding account (the card ledger check compares it).
          network_amount bigint NOT NULL DEFAULT 0,
          body jsonb,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX card_transactions_open_idx ON {{schema}}.card_transactions (card_id) WHERE status IN ('AUTHORIZED', 'PARTIALLY_SETTLED');
      `,
    },
    {
      version: 2,
      name: 'card_reveal_uses',
      sql: `
        -- A panEmbedUrl works once: the digest of each token opened (never the token), kept until it would have
        -- expired anyway; the primary key lets one of two concurrent opens win.
        CREATE TABLE {{schema}}.card_reveal_uses (
          token_sha256 text PRIMARY KEY,
          expires_at timestamptz NOT NULL
        );
        CREATE INDEX card_reveal_uses_expiry_idx ON {{schema}}.card_reveal_uses (expires_at);
      `,
    },
  ],
};
