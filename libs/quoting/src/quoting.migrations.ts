import { MigrationSet } from '@payments/eventsourcing';

/** Read models of the quoting service (its event store, inbox and timer tables come from eventsourcingMigrations). */
export const quotingMigrations: MigrationSet = {
  module: 'quoting',
  migrations: [
    {
      version: 1,
      name: 'quotes',
      sql: `
        CREATE TABLE {{schema}}.quotes (
          quote_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          status text NOT NULL,
          body jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX quotes_platform_idx ON {{schema}}.quotes (platform_id, mode, quote_id COLLATE "C");
        -- The platforms' currency configs (limits), from identity's PlatformConfig events (keyed by the config stream).
        CREATE TABLE {{schema}}.platform_currency_configs (
          config_stream_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          configs jsonb NOT NULL
        );
        CREATE INDEX platform_currency_configs_platform_idx ON {{schema}}.platform_currency_configs (platform_id, mode);
      `,
    },
    {
      version: 2,
      name: 'customer directory',
      sql: `
        -- What quoting needs to know of customers (region for SCA, currencies), from identity's customer events.
        CREATE TABLE {{schema}}.customers (
          customer_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          region text,
          currencies jsonb NOT NULL,
          deleted boolean NOT NULL DEFAULT false
        );
        CREATE INDEX customers_platform_idx ON {{schema}}.customers (platform_id, mode);
        -- The paying customer of a quote (SCA checks run against it; the public body does not show it).
        ALTER TABLE {{schema}}.quotes ADD COLUMN customer_id text;
      `,
    },
    {
      version: 3,
      name: 'sca passkeys',
      sql: `
        -- The enrolled SCA passkey per customer (projection of the ScaPasskey:<customerId> streams).
        CREATE TABLE {{schema}}.sca_passkeys (
          customer_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          passkey_id text NOT NULL UNIQUE,
          credential_id text NOT NULL,
          public_key bytea NOT NULL,
          counter bigint NOT NULL,
          transports jsonb NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX sca_passkeys_credential_idx ON {{schema}}.sca_passkeys (platform_id, mode, credential_id);
        -- Open registration challenges: single use (deleted when answered), 5 minutes; not events, they are ephemeral.
        CREATE TABLE {{schema}}.sca_passkey_registrations (
          challenge text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL,
          customer_id text NOT NULL,
          created_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL
        );
        CREATE INDEX sca_passkey_registrations_customer_idx ON {{schema}}.sca_passkey_registrations (customer_id, created_at);
      `,
    },
    {
      version: 4,
      name: 'uma lookups',
      sql: `
        -- Every GET /receiver/uma answer, so a quote to a UMA address can require its lookupId (per platform and mode).
        CREATE TABLE {{schema}}.uma_lookups (
          lookup_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          receiver_uma_address text NOT NULL,
          currencies jsonb NOT NULL,
          sending_currency text NOT NULL,
          created_at timestamptz NOT NULL
        );
        CREATE INDEX uma_lookups_platform_idx ON {{schema}}.uma_lookups (platform_id, mode, created_at);
      `,
    },
    {
      version: 5,
      name: 'platform fee configs',
      sql: `
        -- The platform's own fees (PlatformConfig.feeConfigs) beside its currency limits, from the same events.
        ALTER TABLE {{schema}}.platform_currency_configs ADD COLUMN fee_configs jsonb NOT NULL DEFAULT '[]'::jsonb;
      `,
    },
    {
      version: 6,
      name: 'customers kyc status',
      sql: `
        -- The customer's kycStatus (kybStatus for a business) from CustomerCreated.v1 (UNVERIFIED) and
        -- CustomerKycStatusChanged.v1: production quotes are created and executed only for APPROVED customers. Rows
        -- projected before stay NULL (not known) and are refused until identity's next status change reaches them.
        ALTER TABLE {{schema}}.customers ADD COLUMN kyc_status text, ADD COLUMN customer_type text;
      `,
    },
  ],
};