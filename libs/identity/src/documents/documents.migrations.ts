import { MigrationSet } from '@payments/eventsourcing';

/** The documents read model and the file bytes of the PostgreSQL DocumentStorage (module `identity-documents`). */
export const documentsMigrations: MigrationSet = {
  module: 'identity-documents',
  migrations: [
    {
      version: 1,
      name: 'documents_document_files',
      sql: `
        CREATE TABLE {{schema}}.documents (
          document_id text PRIMARY KEY,
          platform_id text NOT NULL,
          mode text NOT NULL CHECK (mode IN ('SANDBOX', 'PRODUCTION')),
          document_holder text NOT NULL,
          document_type text NOT NULL,
          side text CHECK (side IN ('FRONT', 'BACK')),
          country text NOT NULL,
          document_number text,
          issuing_authority text,
          file_name text NOT NULL,
          content_type text NOT NULL,
          size_bytes integer NOT NULL CHECK (size_bytes > 0),
          sha256 text NOT NULL,
          file_key text NOT NULL,
          submitted_at timestamptz,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL,
          deleted_at timestamptz
        );
        CREATE INDEX documents_list_idx ON {{schema}}.documents (platform_id, mode, document_id COLLATE "C") WHERE deleted_at IS NULL;
        CREATE INDEX documents_holder_idx ON {{schema}}.documents (platform_id, mode, document_holder, document_id COLLATE "C") WHERE deleted_at IS NULL;
        CREATE TABLE {{schema}}.document_files (
          file_key text PRIMARY KEY,
          content bytea NOT NULL,
          sha256 text NOT NULL,
          size_bytes integer NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        );
        -- PDF, JPEG and PNG are compressed already: store out of line without another compression attempt.
        ALTER TABLE {{schema}}.document_files ALTER COLUMN content SET STORAGE EXTERNAL;
      `,
    },
    {
      version: 2,
      name: 'document_files_sealed',
      sql: `
        -- Files are sealed at rest (AES-256-GCM, pg-document-storage.ts); rows written before are plaintext until
        -- the identity service reseals them at start (sealed = false marks them; reads take both meanwhile).
        ALTER TABLE {{schema}}.document_files ADD COLUMN sealed boolean NOT NULL DEFAULT false;
      `,
    },
  ],
};
