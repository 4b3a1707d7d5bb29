import type { EntityManager } from 'typeorm';
import type { Mode } from '@payments/contracts';

/**
 * The accounts service's copy of what it needs about identity's customers: that they exist in a platform and mode,
 * and their type (the business-sender rule). Fed by CustomerCreated.v1 and CustomerDeleted.v1; CustomerUpdated.v1
 * carries nothing kept here (a customer's type never changes).
 */
export async function rememberCustomer(tx: EntityManager, c: { customerId: string; platformId: string; mode: Mode; customerType: string }): Promise<void> {
  await tx.query(
    `INSERT INTO known_customers (customer_id, platform_id, mode, customer_type) VALUES ($1, $2, $3, $4) ON CONFLICT (customer_id) DO NOTHING`,
    [c.customerId, c.platformId, c.mode, c.customerType],
  );
}

export async function forgetCustomer(tx: EntityManager, customerId: string, deletedAt: string): Promise<void> {
  await tx.query(`UPDATE known_customers SET deleted_at = $2 WHERE customer_id = $1`, [customerId, deletedAt]);
}
