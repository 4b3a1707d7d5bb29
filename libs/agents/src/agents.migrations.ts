import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the agents service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const agentsMigrations: MigrationSet = {
  module: 'agents',
  migrations: [
    {
      version: 1,
      name: 'agents',
      sql: `
        CREATE TABLE {{schema}}.agents (
          agent_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          customer_id text NOT NULL,
          is_paused boolean NOT NULL,
          is_connected boolean NOT NULL,
          deleted boolean NOT NULL,
          state jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX agents_platform_idx ON {{schema}}.agents (platform_id, mode, agent_id COLLATE "C") WHERE NOT deleted;
        -- Keyed hashes only: a code or a token is never stored.
        CREATE TABLE {{schema}}.agent_device_codes (
          code_hash text PRIMARY KEY,
          agent_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL
        );
        CREATE TABLE {{schema}}.agent_tokens (
          token_hash text PRIMARY KEY,
          agent_id text NOT NULL
        );
        CREATE TABLE {{schema}}.agent_quotes (
          quote_id text PRIMARY KEY,
          agent_id text NOT NULL
        );
        CREATE TABLE {{schema}}.agent_actions (
          action_id text PRIMARY KEY,
          agent_id text NOT NULL,
          platform_id text NOT NULL,
          mode text NOT NULL,
          customer_id text NOT NULL,
          status text NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX agent_actions_agent_idx ON {{schema}}.agent_actions (agent_id, action_id COLLATE "C");
        CREATE INDEX agent_actions_pending_idx ON {{schema}}.agent_actions (platform_id, mode, action_id COLLATE "C") WHERE status = 'PENDING_APPROVAL';
      `,
    },
    {
      version: 2,
      name: 'agent-token-lifetimes',
      // Tokens expire and are revoked one by one (issue #27). Rows of tokens redeemed before get an id and 30 days
      // from now (a projection rebuilt from their events gives them an id derived from the hash, 30 days from redemption).
      sql: `
        ALTER TABLE {{schema}}.agent_tokens ADD COLUMN token_id text, ADD COLUMN created_at timestamptz, ADD COLUMN expires_at timestamptz, ADD COLUMN revoked_at timestamptz;
        UPDATE {{schema}}.agent_tokens SET token_id = 'AgentAccessToken:' || gen_random_uuid()::text, created_at = now(), expires_at = now() + interval '30 days' WHERE token_id IS NULL;
        ALTER TABLE {{schema}}.agent_tokens ALTER COLUMN token_id SET NOT NULL, ALTER COLUMN created_at SET NOT NULL, ALTER COLUMN expires_at SET NOT NULL;
        CREATE UNIQUE INDEX agent_tokens_id_idx ON {{schema}}.agent_tokens (token_id);
        CREATE INDEX agent_tokens_agent_idx ON {{schema}}.agent_tokens (agent_id, token_id COLLATE "C");
      `,
    },
  ],
};
