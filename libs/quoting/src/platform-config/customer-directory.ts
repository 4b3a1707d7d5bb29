import type { DataSource, EntityManager } from 'typeorm';
import { ApiError, CustomerKycStatusChangedEvent, CustomerLifecycleEvent, CustomerReadiness, isScaRegion, KycStatus, Mode } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { awaitArrival } from '@payments/runtime';

/** What quoting knows of a customer (identity owns customers; this is its copy from the bus). */
export interface KnownCustomer extends CustomerReadiness {
  customerId: string;
  region: string | null;
  currencies: string[];
  /** Strong Customer Authentication applies (EU/EEA region). */
  scaRequired: boolean;
}

/**
 * Applies identity's CustomerCreated/Updated/Deleted.v1 and CustomerKycStatusChanged.v1 to the `customers` table
 * (inside the consumer's inbox transaction); the bus keeps one customer's events in order.
 */
export async function applyCustomerEvent(tx: EntityManager, event: CustomerLifecycleEvent | CustomerKycStatusChangedEvent): Promise<void> {
  switch (event.type) {
    case 'CustomerCreated.v1': {
      const data = event.data;
      await tx.query(
        `INSERT INTO customers (customer_id, platform_id, mode, region, currencies, kyc_status, customer_type) VALUES ($1, $2, $3, $4, $5::jsonb, 'UNVERIFIED', $6) ON CONFLICT (customer_id) DO NOTHING`,
        [data.customerId, data.platformId, data.mode, data.profile?.region ?? null, JSON.stringify(data.currencies ?? []), data.customerType ?? null],
      );
      return;
    }
    case 'CustomerKycStatusChanged.v1':
      await tx.query(`UPDATE customers SET kyc_status = $2, customer_type = $3 WHERE customer_id = $1`, [event.streamId, event.data.kycStatus, event.data.customerType]);
      return;
    case 'CustomerUpdated.v1': {
      const changes = event.data.changes;
      if (changes.region !== undefined) await tx.query(`UPDATE customers SET region = $2 WHERE customer_id = $1`, [event.streamId, changes.region]);
      if (changes.currencies !== undefined) await tx.query(`UPDATE customers SET currencies = $2::jsonb WHERE customer_id = $1`, [event.streamId, JSON.stringify(changes.currencies)]);
      return;
    }
    case 'CustomerDeleted.v1':
      await tx.query(`UPDATE customers SET deleted = true WHERE customer_id = $1`, [event.data.customerId]);
      return;
  }
}

/** Reads the customer directory; a customer created a moment ago may still be on the bus, so a lookup waits briefly. */
export class CustomerDirectory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly arrivalWaitMs: number,
  ) {}

  /** The customer of this platform and mode, or ApiError NOT_FOUND (unknown, another tenant's or deleted). */
  async get(scope: { platformId: string; mode: Mode }, customerId: string, field = 'customerId'): Promise<KnownCustomer> {
    const found = !/^Customer:[0-9a-f-]{36}$/.test(customerId)
      ? undefined
      : await awaitArrival(async () => {
          // By id alone: another tenant's customer is known at once (404 without waiting), never shown.
          const [row] = await queryRows<{ platform_id: string; mode: Mode; region: string | null; currencies: string[]; deleted: boolean; kyc_status: KycStatus | null; customer_type: KnownCustomer['customerType'] }>(
            this.dataSource,
            `SELECT platform_id, mode, region, currencies, deleted, kyc_status, customer_type FROM customers WHERE customer_id = $1`,
            [customerId],
          );
          if (!row) return undefined;
          const ours = row.platform_id === scope.platformId && row.mode === scope.mode;
          return ours && !row.deleted ? { customerId, region: row.region, currencies: row.currencies, scaRequired: isScaRegion(row.region), kycStatus: row.kyc_status, customerType: row.customer_type } : null;
        }, this.arrivalWaitMs);
    if (!found) throw new ApiError('USER_NOT_FOUND', 'customer not found', { errors: [{ field, message: 'no such customer' }] });
    return found;
  }
}
