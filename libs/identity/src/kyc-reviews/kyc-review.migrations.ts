import { MigrationSet } from '@payments/eventsourcing';

/** The manual review queue's read model (module `identity-kyc-reviews`). */
export const kycReviewMigrations: MigrationSet = {
  module: 'identity-kyc-reviews',
  migrations: [
    {
      version: 1,
      name: 'kyc_reviews',
      sql: `
        CREATE TABLE {{schema}}.kyc_reviews (
          verification_id text PRIMARY KEY,
          platform_id text NOT NULL,
          customer_id text NOT NULL,
          customer_type text NOT NULL CHECK (customer_type IN ('INDIVIDUAL', 'BUSINESS')),
          attempt integer NOT NULL,
          review_status text NOT NULL,
          approvals jsonb NOT NULL, -- KycReviewApprovalRecord[] of the current submission
          decision jsonb, -- KycReviewDecision, once decided
          document_ids jsonb NOT NULL, -- the documents handed over with the current submission
          submitted_at timestamptz NOT NULL,
          queue_key text NOT NULL, -- submission time then verification id: the queue's order and cursor
          updated_at timestamptz NOT NULL
        );
        CREATE INDEX kyc_reviews_queue_idx ON {{schema}}.kyc_reviews (review_status, queue_key COLLATE "C");
      `,
    },
    {
      version: 2,
      name: 'kyc_reviews_identity',
      sql: `
        ALTER TABLE {{schema}}.kyc_reviews
          ADD COLUMN identity jsonb, -- IdentityDigest the approvals must be about (null: opened before digests)
          ADD COLUMN resets jsonb NOT NULL DEFAULT '[]'; -- KycReviewResetRecord[] of the current submission
      `,
    },
  ],
};
