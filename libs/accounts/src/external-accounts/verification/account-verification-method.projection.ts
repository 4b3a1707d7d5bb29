import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { AccountVerificationMethodState } from './account-verification-method.decider';
import { AccountVerificationMethodEvent } from './account-verification-method.events';

/** `account_verification_methods`, in the command's transaction: what new accounts read, and what GET lists. */
export const projectAccountVerificationMethod: Projection<EntityManager, AccountVerificationMethodState, AccountVerificationMethodEvent> = async (tx, events) => {
  for (const { data } of events) {
    await tx.query(
      `INSERT INTO account_verification_methods (currency, method, updated_at, updated_by_id, updated_by_name) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (currency) DO UPDATE SET method = $2, updated_at = $3, updated_by_id = $4, updated_by_name = $5`,
      [data.currency, data.method, data.at, data.operatorId, data.operatorName],
    );
  }
};
