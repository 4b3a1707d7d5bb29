import type { EntityManager } from 'typeorm';
import type { Mode } from '@payments/contracts';

/**
 * The accounts service's copy of what it needs about identity's customers: that they exist in a platform and mode,
 * their type (the business-sender rule) and when they were created (Embedded Wallets opened late, see
 * identity-events.consumer.ts). Fed by CustomerCreated.v1 and CustomerDeleted.v1; CustomerUpdated.v1 carries nothing
 * kept here (a customer's type never changes).
 */
export async function rememberCustomer(tx: EntityManager, c: { customerId: string; platformId: string; mode: Mode; customerType: string; createdAt: string }): Promise<void> {
  await tx.query(
    `INSERT INTO known_customers (customer_id, platform_id, mode, customer_type, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (customer_id) DO NOTHING`,
    [c.customerId, c.platformId, c.mode, c.customerType, c.createdAt],
  );
}

/** Live customers of a platform and mode created at or after `since` (customers remembered without a time: never). */
export async function customersCreatedSince(tx: EntityManager, platformId: string, mode: Mode, since: string): Promise<string[]> {
  const rows: { customer_id: string }[] = await tx.query(
    `SELECT customer_id FROM known_customers WHERE platform_id = $1 AND mode = $2 AND deleted_at IS NULL AND created_at >= $3 ORDER BY customer_id`,
    [platformId, mode, since],
  );
  return rows.map((r) => r.customer_id);
}

export async function forgetCustomer(tx: EntityManager, customerId: string, deletedAt: string): Promise<void> {
  await tx.query(`UPDATE known_customers SET deleted_at = $2 WHERE customer_id = $1`, [customerId, deletedAt]);
}
