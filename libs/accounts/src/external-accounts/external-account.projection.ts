import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { ExternalAccountEvent } from './external-account.events';
import { ExternalAccountState } from './external-account.state';
import { toExternalAccount } from './external-account.view';

/** The external_accounts read model: the API shape plus the columns lists, checks and the operator queue filter on. */
export const projectExternalAccount: Projection<EntityManager, ExternalAccountState, ExternalAccountEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO external_accounts (external_account_id, platform_id, mode, customer_id, status, currency, trusted, body, created_at, updated_at, deleted_at, verification_method)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (external_account_id) DO UPDATE SET status = $5, trusted = $7, body = $8, updated_at = $10, deleted_at = $11, verification_method = $12`,
    [
      state.externalAccountId, state.platformId, state.mode, state.customerId, state.status, state.currency, state.trusted,
      JSON.stringify(toExternalAccount(state)), state.createdAt, state.updatedAt, state.status === 'INACTIVE' ? state.deletedAt : null, state.verificationMethod,
    ],
  );
};
