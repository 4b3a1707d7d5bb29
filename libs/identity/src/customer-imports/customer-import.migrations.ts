import { MigrationSet } from '@payments/eventsourcing';

/** Bulk customer import (module `identity-bulk`): jobs, their uploaded files and per-row outcomes. */
export const customerImportMigrations: MigrationSet = {
  module: 'identity-bulk',
  migrations: [
    {
      version: 1,
      name: 'customer_import_jobs_files_rows',
      sql: `
        CREATE TABLE {{schema}}.customer_import_jobs (
          job_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          file_name text NOT NULL,
          size_bytes integer NOT NULL,
          sha256 text NOT NULL,
          created_by text NOT NULL, -- clientId of the uploader: the actor of every customer the job creates
          status text NOT NULL CHECK (status IN ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED')),
          total integer NOT NULL DEFAULT 0,
          processed integer NOT NULL DEFAULT 0 CHECK (processed <= total OR total = 0),
          succeeded integer NOT NULL DEFAULT 0,
          failed integer NOT NULL DEFAULT 0,
          failure jsonb, -- the file-level error of a FAILED job
          lease_owner text, -- the worker processing it; others wait until lease_expires_at
          lease_expires_at timestamptz,
          attempts integer NOT NULL DEFAULT 0, -- runs that stopped on an infrastructure error (retried with backoff)
          last_error text,
          retry_at timestamptz,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          completed_at timestamptz,
          CHECK (succeeded + failed = processed)
        );
        CREATE INDEX customer_import_jobs_runnable_idx ON {{schema}}.customer_import_jobs (created_at) WHERE status IN ('PENDING', 'PROCESSING');
        -- The upload, kept until the job ends so a restarted worker can parse it again; removed on COMPLETED/FAILED.
        CREATE TABLE {{schema}}.customer_import_files (
          job_id text PRIMARY KEY REFERENCES {{schema}}.customer_import_jobs (job_id),
          content text NOT NULL
        );
        -- One row per processed data row, written with the job's counters in the batch transaction.
        CREATE TABLE {{schema}}.customer_import_rows (
          job_id text NOT NULL REFERENCES {{schema}}.customer_import_jobs (job_id),
          row_number integer NOT NULL CHECK (row_number >= 1),
          status text NOT NULL CHECK (status IN ('SUCCEEDED', 'FAILED')),
          customer_id text,
          errors jsonb,
          recovered boolean NOT NULL DEFAULT false, -- created by an earlier, interrupted run of this job
          PRIMARY KEY (job_id, row_number)
        );
        CREATE INDEX customer_import_rows_failed_idx ON {{schema}}.customer_import_rows (job_id, row_number) WHERE status = 'FAILED';
      `,
    },
  ],
};
