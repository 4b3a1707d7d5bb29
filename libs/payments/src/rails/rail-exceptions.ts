import { v7 as uuidv7 } from 'uuid';
import type { RailExceptionKind } from '@payments/contracts';
import { queryRows, SqlExecutor } from '@payments/eventsourcing';

/** What an operator must look at: an entry of an imported file matching no payment, a return that could not be reversed… */
export interface RailExceptionInput {
  /** Derived from what it is about (file and entry index) so a re-run records it once; a fresh id otherwise. */
  exceptionId?: string;
  connectorId: string;
  fileId?: string | null;
  paymentId?: string | null;
  /** NO_VERIFYING_RAIL: a production account waits for a payout rail's verification that no configured connector can make. */
  kind: RailExceptionKind;
  message: string;
  detail?: Record<string, unknown>;
}

/** The `rail_exceptions` table: open until an operator resolves them (GET/POST /operator/v1/rails/exceptions). */
export class RailExceptions {
  constructor(private readonly schema: string) {}

  async record(db: SqlExecutor, e: RailExceptionInput): Promise<void> {
    await queryRows(
      db,
      `INSERT INTO ${this.schema}.rail_exceptions (exception_id, connector_id, file_id, payment_id, kind, message, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) ON CONFLICT (exception_id) DO NOTHING`,
      [e.exceptionId ?? `RailException:${uuidv7()}`, e.connectorId, e.fileId ?? null, e.paymentId ?? null, e.kind, e.message, JSON.stringify(e.detail ?? {})],
    );
  }
}
