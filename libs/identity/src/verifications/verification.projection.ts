import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { VerificationEvent } from './verification.events';
import { VerificationState } from './verification.state';
import { toVerification } from './verification.view';

/** The verifications read model: one row per customer's verification, holding the API shape. */
export const projectVerification: Projection<EntityManager, VerificationState, VerificationEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO verifications (verification_id, customer_id, platform_id, mode, status, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (verification_id) DO UPDATE SET status = $5, body = $6, updated_at = $8`,
    [state.verificationId, state.customerId, state.platformId, state.mode, state.status, JSON.stringify(toVerification(state)), state.createdAt, state.updatedAt],
  );
};
