import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { BeneficialOwnerEvent } from './beneficial-owner.events';
import { BeneficialOwnerState } from './beneficial-owner.state';
import { toBeneficialOwner } from './beneficial-owner.view';

/** The beneficial_owners read model (identity migration 2): one row per owner holding the API shape. */
export const projectBeneficialOwner: Projection<EntityManager, BeneficialOwnerState, BeneficialOwnerEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO beneficial_owners (beneficial_owner_id, customer_id, platform_id, mode, body, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (beneficial_owner_id) DO UPDATE SET body = $5, updated_at = $7`,
    [state.beneficialOwnerId, state.customerId, state.platformId, state.mode, JSON.stringify(toBeneficialOwner(state)), state.createdAt, state.updatedAt],
  );
};
