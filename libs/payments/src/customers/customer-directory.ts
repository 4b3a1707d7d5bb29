import type { DataSource, EntityManager } from 'typeorm';
import { ApiError, CustomerKycStatusChangedEvent, CustomerLifecycleEvent, customerNotReady, KycStatus, Mode } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { awaitArrival } from '@payments/runtime';

type Scope = { platformId: string; mode: Mode };

/** What payments knows of a customer (identity owns customers; this is its copy from the bus). */
export interface KnownCustomer {
  customerId: string;
  platformId: string;
  mode: Mode;
  umaAddress: string | null;
  platformCustomerId: string | null;
  currencies: string[];
  /** kycStatus (kybStatus for a business); null when projected before payments kept it (not known: refused). */
  kycStatus: KycStatus | null;
  customerType: 'INDIVIDUAL' | 'BUSINESS' | null;
}

interface CustomerRow {
  customer_id: string;
  platform_id: string;
  mode: Mode;
  uma_address: string | null;
  platform_customer_id: string | null;
  currencies: string[];
  deleted: boolean;
  kyc_status: KycStatus | null;
  customer_type: 'INDIVIDUAL' | 'BUSINESS' | null;
}


/**
 * Applies identity's CustomerCreated/Updated/Deleted.v1 and CustomerKycStatusChanged.v1 to `customers` (inside the
 * consumer's inbox transaction). The bus keeps one stream's events in order, so a status change finds its row.
 */
export async function applyCustomerEvent(tx: EntityManager, event: CustomerLifecycleEvent | CustomerKycStatusChangedEvent): Promise<void> {
  switch (event.type) {
    case 'CustomerCreated.v1': {
      const data = event.data;
      await tx.query(
        `INSERT INTO customers (customer_id, platform_id, mode, uma_address, platform_customer_id, currencies, kyc_status, customer_type) VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'UNVERIFIED', $7)
         ON CONFLICT (customer_id) DO NOTHING`,
        [data.customerId, data.platformId, data.mode, data.umaAddress ?? null, data.platformCustomerId ?? null, JSON.stringify(data.currencies ?? []), data.customerType ?? null],
      );
      return;
    }
    case 'CustomerKycStatusChanged.v1':
      await tx.query(`UPDATE customers SET kyc_status = $2, customer_type = $3 WHERE customer_id = $1`, [event.streamId, event.data.kycStatus, event.data.customerType]);
      return;
    case 'CustomerUpdated.v1': {
      const changes = event.data.changes;
      if (changes.umaAddress !== undefined) await tx.query(`UPDATE customers SET uma_address = $2 WHERE customer_id = $1`, [event.streamId, changes.umaAddress]);
      if (changes.platformCustomerId !== undefined) await tx.query(`UPDATE customers SET platform_customer_id = $2 WHERE customer_id = $1`, [event.streamId, changes.platformCustomerId]);
      if (changes.currencies !== undefined) await tx.query(`UPDATE customers SET currencies = $2::jsonb WHERE customer_id = $1`, [event.streamId, JSON.stringify(changes.currencies)]);
      return;
    }
    case 'CustomerDeleted.v1':
      await tx.query(`UPDATE customers SET deleted = true WHERE customer_id = $1`, [event.data.customerId]);
      return;
  }
}

const toCustomer = (row: CustomerRow): KnownCustomer => ({
  customerId: row.customer_id,
  platformId: row.platform_id,
  mode: row.mode,
  umaAddress: row.uma_address,
  platformCustomerId: row.platform_customer_id,
  currencies: row.currencies,
  kycStatus: row.kyc_status,
  customerType: row.customer_type,
});

/** Refuses production money for a customer not APPROVED (`customerNotReady`, the rule payments and quoting share). */
export async function assertCustomerReady(directory: CustomerDirectory, scope: Scope, customerId: string | null | undefined): Promise<void> {
  if (scope.mode !== 'PRODUCTION' || !customerId) return;
  const refusal = customerNotReady(scope.mode, customerId, await directory.byId(scope, customerId));
  if (refusal) throw refusal;
}

/**
 * Reads the directory. A customer created a moment ago may still be on the bus, so a miss waits up to
 * `arrivalWaitMs` before it is final; deleted customers and other tenants' are never returned.
 */
export class CustomerDirectory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly arrivalWaitMs: number,
  ) {}

  /** The live customer of this platform and mode whose UMA address is `umaAddress` (any case), or undefined. */
  byUmaAddress(scope: Scope, umaAddress: string): Promise<KnownCustomer | undefined> {
    return this.waitFor(() =>
      queryRows<CustomerRow>(this.dataSource, `SELECT * FROM customers WHERE platform_id = $1 AND mode = $2 AND lower(uma_address) = lower($3) AND NOT deleted`, [scope.platformId, scope.mode, umaAddress]),
    );
  }

  /** The live customer of this platform and mode, or 404 USER_NOT_FOUND. */
  async byId(scope: Scope, customerId: string, field = 'customerId'): Promise<KnownCustomer> {
    const notFound = () => new ApiError('USER_NOT_FOUND', 'customer not found', { errors: [{ field, message: 'no such customer' }] });
    if (!/^Customer:[0-9a-f-]{36}$/.test(customerId)) throw notFound();
    // By id alone: another tenant's customer is known at once (404 without waiting), never shown.
    const rows = () => queryRows<CustomerRow>(this.dataSource, `SELECT * FROM customers WHERE customer_id = $1`, [customerId]);
    const found = await this.waitFor(rows, true);
    if (!found || found.platformId !== scope.platformId || found.mode !== scope.mode) throw notFound();
    return found;
  }

  private waitFor(query: () => Promise<CustomerRow[]>, anyRowIsFinal = false): Promise<KnownCustomer | undefined> {
    return awaitArrival(async () => {
      const [row] = await query();
      if (row && !row.deleted) return toCustomer(row);
      return row && anyRowIsFinal ? null : undefined;
    }, this.arrivalWaitMs);
  }
}
