import type { KycStatus, Mode } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

/**
 * Whether a Customer or BeneficialOwner id names a live holder of this platform and mode. Reads the customer read
 * models of the same service (tables `customers` and `beneficial_owners`); anything else is simply not found,
 * so another tenant's holder looks exactly like a missing one.
 */
export async function holderExists(db: SqlExecutor, platformId: string, mode: Mode, holderId: string): Promise<boolean> {
  if (holderId.startsWith('Customer:')) {
    const rows = await queryRows(db, `SELECT 1 FROM customers WHERE customer_id = $1 AND platform_id = $2 AND mode = $3 AND deleted_at IS NULL`, [holderId, platformId, mode]);
    return rows.length > 0;
  }
  if (holderId.startsWith('BeneficialOwner:')) {
    const rows = await queryRows(
      db,
      `SELECT 1 FROM beneficial_owners o JOIN customers c ON c.customer_id = o.customer_id
       WHERE o.beneficial_owner_id = $1 AND o.platform_id = $2 AND o.mode = $3 AND c.deleted_at IS NULL`,
      [holderId, platformId, mode],
    );
    return rows.length > 0;
  }
  return false;
}

/** The customer whose identity a holder's documents belong to (an owner's business), with its kycStatus/kybStatus. */
export async function customerOfHolder(db: SqlExecutor, holderId: string): Promise<{ customerId: string; status: KycStatus } | undefined> {
  const rows = await queryRows<{ customer_id: string; status: KycStatus }>(
    db,
    `SELECT c.customer_id, c.status FROM customers c
      WHERE c.customer_id = $1 OR c.customer_id = (SELECT customer_id FROM beneficial_owners WHERE beneficial_owner_id = $1)`,
    [holderId],
  );
  return rows[0] && { customerId: rows[0].customer_id, status: rows[0].status };
}
