import type { EntityManager } from 'typeorm';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';
import type { RailOrder, RailPaymentKind } from './rail-connector';

export type RailPaymentStatus = 'SUBMITTED' | 'FILED' | 'SENT' | 'SETTLED' | 'REJECTED' | 'RETURNED';

export interface RailPaymentRow {
  payment_id: string;
  connector_id: string;
  platform_id: string;
  mode: 'SANDBOX' | 'PRODUCTION';
  kind: RailPaymentKind;
  payment_rail: string;
  currency: string;
  amount: string;
  external_account_id: string;
  sequence: string;
  rail_reference: string;
  rail_order: RailOrder;
  status: RailPaymentStatus;
  file_id: string | null;
  provider_reference: string | null;
  last_sequence: string | null;
  settles_at: Date | null;
  submitted_at: Date;
  updated_at: Date;
}

/** The `rail_payments` table: one row per payment handed to a connector (rails.migrations.ts). */
export class RailPayments {
  constructor(private readonly schema: string) {}

  private get table(): string {
    return `${this.schema}.rail_payments`;
  }

  /** `forUpdate`: locks the row until the caller's transaction ends (how a payment's outcomes are ordered). */
  async get(db: SqlExecutor, paymentId: string, { forUpdate = false } = {}): Promise<RailPaymentRow | undefined> {
    const [row] = await queryRows<RailPaymentRow>(db, `SELECT * FROM ${this.table} WHERE payment_id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [paymentId]);
    return row;
  }

  async byReference(db: SqlExecutor, connectorId: string, railReference: string): Promise<RailPaymentRow | undefined> {
    const [row] = await queryRows<RailPaymentRow>(db, `SELECT * FROM ${this.table} WHERE connector_id = $1 AND rail_reference = $2`, [connectorId, railReference]);
    return row;
  }

  async nextSequence(tx: EntityManager): Promise<number> {
    const [row] = await queryRows<{ n: string }>(tx, `SELECT nextval('${this.schema}.rail_reference_seq') AS n`);
    return Number(row.n);
  }

  /** Records the payment as SUBMITTED; false when it already was (its first row stands). */
  async insert(tx: EntityManager, connectorId: string, order: RailOrder, sequence: number, railReference: string): Promise<boolean> {
    const rows = await queryRows(
      tx,
      `INSERT INTO ${this.table} (payment_id, connector_id, platform_id, mode, kind, payment_rail, currency, amount, external_account_id, sequence, rail_reference, rail_order, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, 'SUBMITTED') ON CONFLICT (payment_id) DO NOTHING RETURNING 1`,
      [order.paymentId, connectorId, order.platformId, order.mode, order.kind, order.paymentRail, order.currency, order.amount, order.externalAccountId, sequence, railReference, JSON.stringify(order)],
    );
    return rows.length > 0;
  }

  async setStatus(db: SqlExecutor, paymentId: string, status: RailPaymentStatus, extra: { settlesAt?: Date; providerReference?: string; lastSequence?: number } = {}): Promise<void> {
    await queryRows(
      db,
      `UPDATE ${this.table} SET status = $2, settles_at = coalesce($3, settles_at), provider_reference = coalesce($4, provider_reference),
              last_sequence = coalesce($5, last_sequence), updated_at = now() WHERE payment_id = $1`,
      [paymentId, status, extra.settlesAt ?? null, extra.providerReference ?? null, extra.lastSequence ?? null],
    );
  }
}
