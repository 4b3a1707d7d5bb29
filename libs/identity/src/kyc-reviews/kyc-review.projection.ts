import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { KycReviewEvent } from './kyc-review.events';
import { KycReviewState, reviewStatusOf } from './kyc-review.state';

/**
 * The queue's read model: one row per production verification ever submitted complete, holding where its review
 * stands. `queue_key` orders the queue by submission (its time, then the verification id to break ties): a
 * resubmission goes to the back.
 */
export const projectKycReview: Projection<EntityManager, KycReviewState, KycReviewEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO kyc_reviews (verification_id, platform_id, customer_id, customer_type, attempt, review_status, approvals, decision, document_ids, submitted_at, queue_key, updated_at, identity, resets)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (verification_id) DO UPDATE SET attempt = $5, review_status = $6, approvals = $7, decision = $8, document_ids = $9, submitted_at = $10, queue_key = $11, updated_at = $12,
       identity = $13, resets = $14`,
    [
      state.verificationId, state.platformId, state.customerId, state.customerType, state.attempt, reviewStatusOf(state), JSON.stringify(state.approvals),
      state.status === 'DECIDED' ? JSON.stringify(state.decision) : null, JSON.stringify(state.documentIds), state.submittedAt, queueKey(state.submittedAt, state.verificationId), state.updatedAt,
      state.identity ? JSON.stringify(state.identity) : null, JSON.stringify(state.resets),
    ],
  );
};

/** ISO 8601 instants of one format sort as text in time order. */
export const queueKey = (submittedAt: string, verificationId: string) => `${new Date(submittedAt).toISOString()} ${verificationId}`;
