import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { ApiError } from '@payments/contracts';
import { DurableTimers, queryRows, SqlExecutor, TimerHandler, TimerRow } from '@payments/eventsourcing';
import type { RailOutcome } from './rail-connector';
import { RailExceptions } from './rail-exceptions';
import { RailPaymentRow, RailPayments, RailPaymentStatus } from './rail-payments';

export const RAIL_OUTCOME_TIMER = 'payments.rails.outcome';
const OUTCOME_TIMER_NAMESPACE = '0c7d5e1a-2f4b-4a8e-9d3c-6b1e8f2a7c45';

/** Applies one outcome to what the payment is for: its transaction (the saga) or its external account (a prenote). */
export interface RailOutcomeTarget {
  applyToTransaction(payment: RailPaymentRow, outcome: RailOutcome): Promise<void>;
  applyToPrenote(payment: RailPaymentRow, outcome: RailOutcome): Promise<void>;
}

interface OutcomeRow {
  outcome_id: string;
  payment_id: string;
  kind: RailOutcome['kind'];
  failure_reason: RailOutcome['failureReason'] | null;
  rail_code: string | null;
  source: string;
  applied_at: Date | null;
}

const STATUS_OF: Record<RailOutcome['kind'], RailPaymentStatus> = { SETTLED: 'SETTLED', REJECTED: 'REJECTED', RETURNED: 'RETURNED' };

/**
 * A rail's news, exactly once: `record` inserts the outcome keyed by payment and kind (a file imported twice, a
 * callback delivered twice: the second records nothing) and schedules its application in the same transaction; the
 * timer then applies it to the transaction through the saga, whose ledger calls are idempotent by derived ids, and
 * marks it applied. A crash between any two steps replays the timer, which finds the work done.
 */
export class RailOutcomes {
  private target?: RailOutcomeTarget;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly timers: DurableTimers<EntityManager>,
    private readonly payments: RailPayments,
    private readonly exceptions: RailExceptions,
  ) {}

  connect(target: RailOutcomeTarget): void {
    this.target = target;
  }

  timerHandlers(): Record<string, TimerHandler> {
    return { [RAIL_OUTCOME_TIMER]: (timer) => this.onTimer(timer) };
  }

  /** True when this is news (first time recorded). The payment's row moves to the outcome's status. */
  async record(tx: EntityManager, outcome: RailOutcome): Promise<boolean> {
    const outcomeId = `${outcome.paymentId}/${outcome.kind}`;
    const inserted = await queryRows(
      tx,
      `INSERT INTO ${this.schema}.rail_outcomes (outcome_id, payment_id, kind, failure_reason, rail_code, source)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (outcome_id) DO NOTHING RETURNING 1`,
      [outcomeId, outcome.paymentId, outcome.kind, outcome.failureReason ?? null, outcome.railCode ?? null, outcome.source],
    );
    if (inserted.length === 0) return false;
    // A return after a rejection, a settlement after a return: the first final word stands, the rest is shown to operators.
    const current = await this.payments.get(tx, outcome.paymentId);
    if (current && (current.status === 'REJECTED' || current.status === 'RETURNED' || (current.status === 'SETTLED' && outcome.kind === 'REJECTED'))) {
      await this.exceptions.record(tx, {
        exceptionId: `RailException:${outcomeId}`,
        connectorId: current.connector_id,
        paymentId: outcome.paymentId,
        kind: 'CONTRADICTORY_OUTCOME',
        message: `${outcome.kind} reported (${outcome.source}) for a payment already ${current.status}: nothing changed`,
        detail: { ...outcome },
      });
      await queryRows(tx, `UPDATE ${this.schema}.rail_outcomes SET applied_at = now() WHERE outcome_id = $1`, [outcomeId]);
      return false;
    }
    await this.payments.setStatus(tx, outcome.paymentId, STATUS_OF[outcome.kind]);
    await this.timers.schedule(tx, {
      id: uuidv5(outcomeId, OUTCOME_TIMER_NAMESPACE),
      name: RAIL_OUTCOME_TIMER,
      delayMs: 0,
      realTime: true,
      streamId: outcome.paymentId,
      payload: { outcomeId },
    });
    return true;
  }

  /** Outcomes recorded and not applied yet (a metric; normally drained within a poll interval). */
  async pending(db: SqlExecutor): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, `SELECT count(*)::int AS n FROM ${this.schema}.rail_outcomes WHERE applied_at IS NULL`);
    return row.n;
  }

  private async onTimer(timer: TimerRow): Promise<void> {
    const { outcomeId } = timer.payload as { outcomeId: string };
    const [row] = await queryRows<OutcomeRow>(this.dataSource, `SELECT * FROM ${this.schema}.rail_outcomes WHERE outcome_id = $1`, [outcomeId]);
    if (!row || row.applied_at) return;
    const payment = await this.payments.get(this.dataSource, row.payment_id);
    if (!payment) return;
    const outcome: RailOutcome = {
      paymentId: row.payment_id,
      kind: row.kind,
      ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
      ...(row.rail_code ? { railCode: row.rail_code } : {}),
      source: row.source,
    };
    if (!this.target) throw new Error('rail outcomes have no target connected');
    try {
      if (payment.kind === 'PRENOTE') await this.target.applyToPrenote(payment, outcome);
      else await this.target.applyToTransaction(payment, outcome);
    } catch (error) {
      // Money the ledger cannot take back (a pulled credit already spent): an operator decides, the timer stops.
      if (!(error instanceof ApiError && error.code === 'INSUFFICIENT_FUNDS')) throw error;
      await this.dataSource.transaction((tx) =>
        this.exceptions.record(tx, {
          exceptionId: `RailException:${outcomeId}`,
          connectorId: payment.connector_id,
          paymentId: payment.payment_id,
          kind: 'RETURN_NOT_REVERSIBLE',
          message: `${outcome.kind} of ${payment.payment_id} could not be reversed on the ledger: ${error.message}`,
          detail: { ...outcome },
        }),
      );
    }
    await queryRows(this.dataSource, `UPDATE ${this.schema}.rail_outcomes SET applied_at = now() WHERE outcome_id = $1`, [outcomeId]);
  }
}
