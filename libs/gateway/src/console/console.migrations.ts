import { MigrationSet } from '@payments/eventsourcing';

/** The console's sign-in sessions (console-sessions.ts), in the gateway's schema beside its idempotency records. */
export const consoleMigrations: MigrationSet = {
  module: 'console',
  migrations: [
    {
      version: 1,
      name: 'console_sessions',
      sql: `
        CREATE TABLE {{schema}}.console_sessions (
          session_hash text PRIMARY KEY, -- SHA-256 of the cookie's value: a database dump holds no usable session
          audience text NOT NULL CHECK (audience IN ('platform', 'operator')),
          client_id text NOT NULL,
          sealed_secret text NOT NULL, -- the credential's secret, sealed under SECRET_HASH_KEY for this row only
          csrf_token text NOT NULL,
          principal jsonb NOT NULL, -- what the console shows of who is signed in
          created_at timestamptz NOT NULL DEFAULT now(),
          last_seen_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz NOT NULL
        );
        CREATE INDEX console_sessions_expiry_idx ON {{schema}}.console_sessions (expires_at);
      `,
    },
  ],
};
