import type { DataSource, EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { DurableTimers, queryRows, SqlExecutor, TimerHandler, TimerNotYet, TimerRow } from '@payments/eventsourcing';
import type { RailOutcome } from './rail-connector';
import { RailExceptions } from './rail-exceptions';
import { RailPaymentRow, RailPayments } from './rail-payments';
import { decideRecord } from './outcome-rules';

export const RAIL_OUTCOME_TIMER = 'payments.rails.outcome';
const OUTCOME_TIMER_NAMESPACE = '0c7d5e1a-2f4b-4a8e-9d3c-6b1e8f2a7c45';

/** Applies one outcome to what the payment is for: its transaction (the saga) or its external account (a prenote). */
export interface RailOutcomeTarget {
  /** `notReversible` is told (before the shortfall is booked) when a return cannot be taken back from the account. */
  applyToTransaction(payment: RailPaymentRow, outcome: RailOutcome, notReversible: (why: string) => Promise<void>): Promise<void>;
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

/**
 * How long one applier owns a payment's outcomes before another may take over (renewed every third of it while it
 * works): also how long a killed applier's payment waits for the next one.
 */
const APPLIER_LEASE_MS = 10_000;

/**
 * Thrown when another applier (a timer of the same payment, another replica) holds the payment's outcomes: its timer
 * backs off as after any failure, but tries again no later than that lease runs out (a killed holder's, say).
 */
export class PaymentOutcomesBusy extends TimerNotYet {}

/**
 * A rail's news, exactly once and in order (docs/rails.md "Outcomes in order"): `record` inserts the outcome keyed by
 * payment and kind (a file imported twice, a callback delivered twice: the second records nothing) under the lock of
 * the payment's row, so outcomes arriving together (one file, two files, a callback and the calendar, two replicas)
 * are decided one after the other (`decideRecord`), and numbered in that order. Its timer then applies the payment's
 * outcomes through ONE writer: it leases the payment (`applier_until`), applies every outcome not yet applied in
 * the recorded order, marks each applied, and lets the lease go. A timer finding the lease taken is retried; by then
 * the holder has usually applied its outcome too. A crash between any two steps replays the work, which finds it
 * done (the saga's ledger calls are idempotent by derived ids).
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
    // The row's lock orders every outcome of this payment, whoever records it.
    const current = await this.payments.get(tx, outcome.paymentId, { forUpdate: true });
    const inserted = await queryRows(
      tx,
      `INSERT INTO ${this.schema}.rail_outcomes (outcome_id, payment_id, kind, failure_reason, rail_code, source)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (outcome_id) DO NOTHING RETURNING 1`,
      [outcomeId, outcome.paymentId, outcome.kind, outcome.failureReason ?? null, outcome.railCode ?? null, outcome.source],
    );
    if (inserted.length === 0) return false;
    const decision = current ? decideRecord(current.status, outcome.kind) : ({ news: true, status: outcome.kind } as const);
    if (!decision.news) {
      await this.exceptions.record(tx, {
        exceptionId: `RailException:${outcomeId}`,
        connectorId: current!.connector_id,
        paymentId: outcome.paymentId,
        kind: 'CONTRADICTORY_OUTCOME',
        message: `${decision.reason} (${outcome.source}): nothing changed`,
        detail: { ...outcome },
      });
      await queryRows(tx, `UPDATE ${this.schema}.rail_outcomes SET applied_at = now() WHERE outcome_id = $1`, [outcomeId]);
      return false;
    }
    await this.payments.setStatus(tx, outcome.paymentId, decision.status);
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
    await this.drain(row.payment_id);
  }

  /**
   * Applies the payment's unapplied outcomes in the recorded order, as its one writer; PaymentOutcomesBusy when
   * another writer holds the payment (its timer retries).
   */
  async drain(paymentId: string): Promise<void> {
    const token = randomUUID();
    const [lease] = await queryRows<{ leased: boolean; held_for_ms: number | null }>(
      this.dataSource,
      // In a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count], which would read as taken every time.
      `WITH leased AS (UPDATE ${this.schema}.rail_payments SET applier = $2, applier_until = now() + ($3::bigint * interval '1 millisecond')
        WHERE payment_id = $1 AND (applier_until IS NULL OR applier_until < now()) RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM leased) AS leased,
              (SELECT ceil(extract(epoch FROM applier_until - now()) * 1000) FROM ${this.schema}.rail_payments WHERE payment_id = $1)::int AS held_for_ms`,
      [paymentId, token, APPLIER_LEASE_MS],
    );
    // The SELECT reads the snapshot from before the UPDATE: the other writer's lease when it held one then; none
    // (null) when it took the payment while this statement waited for its row, and then the backoff decides.
    if (!lease.leased) throw new PaymentOutcomesBusy(`the outcomes of ${paymentId} are being applied by another writer: retried by the end of its lease`, lease.held_for_ms === null ? undefined : Math.max(50, lease.held_for_ms + 50));
    const renewal = setInterval(() => {
      void queryRows(this.dataSource, `UPDATE ${this.schema}.rail_payments SET applier_until = now() + ($3::bigint * interval '1 millisecond') WHERE payment_id = $1 AND applier = $2`, [paymentId, token, APPLIER_LEASE_MS]).catch(() => undefined);
    }, APPLIER_LEASE_MS / 3);
    renewal.unref();
    try {
      for (;;) {
        const [row] = await queryRows<OutcomeRow>(this.dataSource, `SELECT * FROM ${this.schema}.rail_outcomes WHERE payment_id = $1 AND applied_at IS NULL ORDER BY seq LIMIT 1`, [paymentId]);
        if (!row) return;
        await this.applyOne(row);
        await queryRows(this.dataSource, `UPDATE ${this.schema}.rail_outcomes SET applied_at = now() WHERE outcome_id = $1`, [row.outcome_id]);
      }
    } finally {
      clearInterval(renewal);
      await queryRows(this.dataSource, `UPDATE ${this.schema}.rail_payments SET applier = NULL, applier_until = NULL WHERE payment_id = $1 AND applier = $2`, [paymentId, token]);
    }
  }

  private async applyOne(row: OutcomeRow): Promise<void> {
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
    if (payment.kind === 'PRENOTE') return this.target.applyToPrenote(payment, outcome);
    // Money the ledger cannot take back (a pulled credit already spent): the bank has it back all the same, so the
    // transaction fails and the shortfall is booked to the platform; an operator recovers it.
    await this.target.applyToTransaction(payment, outcome, (shortfall) =>
      this.dataSource.transaction((tx) =>
        this.exceptions.record(tx, {
          exceptionId: `RailException:${row.outcome_id}`,
          connectorId: payment.connector_id,
          paymentId: payment.payment_id,
          kind: 'RETURN_NOT_REVERSIBLE',
          message: `${outcome.kind} of ${payment.payment_id} (${outcome.railCode ?? outcome.source}) could not be taken back from the account: ${shortfall}; the shortfall is booked to the platform's RETURN_SHORTFALL account`,
          detail: { ...outcome },
        }),
      ),
    );
  }
}
