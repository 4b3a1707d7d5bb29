import type { EntityManager } from 'typeorm';
import type { Projection } from '@payments/eventsourcing';
import { CustomerEvent } from './customer.events';
import { CustomerState } from './customer.state';
import { toCustomer } from './customer.view';

/** The customers read model: one row per customer holding the API shape, plus the columns lists filter on. */
export const projectCustomer: Projection<EntityManager, CustomerState, CustomerEvent> = async (tx, _events, state) => {
  if (state.status === 'NONE') return;
  await tx.query(
    `INSERT INTO customers (customer_id, platform_id, mode, platform_customer_id, customer_type, uma_address, region, currencies, status, body, created_at, updated_at, deleted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (customer_id) DO UPDATE SET platform_customer_id = $4, uma_address = $6, region = $7, currencies = $8, status = $9, body = $10,
       updated_at = $12, deleted_at = $13`,
    [
      state.customerId, state.platformId, state.mode, state.platformCustomerId, state.customerType, state.umaAddress, state.profile.region ?? null,
      state.currencies, state.kycStatus, JSON.stringify(toCustomer(state)), state.createdAt, state.updatedAt, state.status === 'DELETED' ? state.deletedAt : null,
    ],
  );
};
