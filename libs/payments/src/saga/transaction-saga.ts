import type { DataSource, EntityManager } from 'typeorm';
import { v5 as uuidv5 } from 'uuid';
import { ApiError, TransactionRefund, UnresolvedFunds } from '@payments/contracts';
import { CommandExecutor, CommandRequest, DomainError, DurableTimers, EventMetadata, fold, IF_APPENDED, PostgresEventStore, queryPrepared, ScheduleTimer, Statement, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { currencyObject } from '@payments/money';
import { Peers, systemCaller } from '../rpc/peers';
import { NOT_PENDING_APPROVAL, TransactionCommand, transactionDecider } from '../transactions/transaction.decider';
import { TransactionEvent } from '../transactions/transaction.events';
import { transactionRows } from '../transactions/transaction.projection';
import { awaitsApproval, ExistingTransaction, TransactionState } from '../transactions/transaction.state';
import { entryIdOf, holdIdOf, PlannedEntry, reversalIdOf } from './ledger-plan';
import { PLATFORM_APPROVAL_WINDOW_MS, SandboxRailScript } from './rail-script';
import type { RailOrder, RailOutcome } from '../rails/rail-connector';
import type { RailPaymentRow } from '../rails/rail-payments';
import { beneficiaryOf, type Rails } from '../rails/rails';
import { failureReasonOf, transactionEffect } from '../rails/outcome-rules';

export const TRANSACTION_STEP_TIMER = 'payments.transaction.step';
const STEP_TIMER_NAMESPACE = '5b3f2a4e-8d61-4c2b-9f7e-1a6c0d3e9b52';
/** Safety net for a hold the request (or consumer) could not place before it stopped: real time, not scaled. */
export const HOLD_RETRY_DELAY_MS = 5_000;

type Step = 'approval' | 'hold' | 'rail' | 'return';
const stepTimerId = (transactionId: string, step: Step) => uuidv5(`${transactionId}/${step}`, STEP_TIMER_NAMESPACE);

const now = () => new Date().toISOString();

/** The step a transaction waits for, if any: its timer is scheduled with the change that made it due. */
function nextStep(s: ExistingTransaction): { step: Step; delayMs: number; realTime: boolean } | undefined {
  if (awaitsApproval(s)) return { step: 'approval', delayMs: PLATFORM_APPROVAL_WINDOW_MS, realTime: false };
  if (s.status === 'PENDING' && s.plan.hold) return { step: 'hold', delayMs: HOLD_RETRY_DELAY_MS, realTime: true };
  if (s.status === 'PROCESSING' || (s.status === 'PENDING' && !s.plan.hold)) return { step: 'rail', delayMs: s.rail.delayMs, realTime: false };
  if (s.status === 'COMPLETED' && s.rail.outcome === 'RETURNED') return { step: 'return', delayMs: s.rail.returnAfterMs ?? 0, realTime: false };
  return undefined;
}

/**
 * The transaction saga: each step makes its ledger calls over RPC (idempotent by ids derived from the transaction
 * id), then records the outcome through the decider. Steps are driven by durable timers scheduled in the same
 * transaction as the change that made them due, so a restart resumes them, and a repeated step has one effect.
 */
export class TransactionSaga {
  private rails?: Rails;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: DurableTimers<EntityManager>,
    private readonly peers: Peers,
  ) {}

  /** The production rails (set once at start: the rails' outcomes call back into the saga). */
  connectRails(rails: Rails): void {
    this.rails = rails;
  }

  timerHandlers(): Record<string, TimerHandler> {
    return { [TRANSACTION_STEP_TIMER]: (timer) => this.onTimer(timer) };
  }

  /** Appends a command (own transaction, or the caller's `tx`), projects and schedules the next step. */
  async apply(
    transactionId: string,
    platformId: string,
    command: TransactionCommand,
    metadata: EventMetadata,
    {
      tx,
      claim,
      newStream,
    }: {
      /** The caller's transaction (a consumer's, with its inbox row). */
      tx?: EntityManager;
      /** An Idempotency-Key claim to commit with the first event (IdempotencyClaims). */
      claim?: (tx: EntityManager) => Promise<void>;
      /** The transaction id was generated for this request: see CommandRequest.newStream. */
      newStream?: boolean;
    } = {},
  ): Promise<TransactionState> {
    const request: CommandRequest<EntityManager, TransactionState, TransactionCommand, TransactionEvent> = {
      decider: transactionDecider,
      streamId: transactionId,
      platformId,
      metadata,
      command,
      claim,
      newStream,
      projectAlongside: this.projectAlongside,
      completeAll: this.withPlatformCustomerIds,
    };
    const result = tx ? await this.executor.decideAndAppend(tx, request) : await this.executor.execute(request);
    return result.state;
  }

  /**
   * Every transaction names the platform's id of its customer (the spec's platformCustomerId), read once at creation:
   * for every creation of a group in one statement (completeAll).
   */
  private readonly withPlatformCustomerIds = async (tx: EntityManager, commands: readonly TransactionCommand[]): Promise<TransactionCommand[]> => {
    const wanted = [...new Set(commands.flatMap((c) => (c.type === 'CreateTransaction' && c.terms.customerId && c.terms.platformCustomerId === undefined ? [c.terms.customerId] : [])))];
    if (wanted.length === 0) return [...commands];
    const rows = await queryPrepared<{ customer_id: string; platform_customer_id: string | null }>(tx, `SELECT customer_id, platform_customer_id FROM customers WHERE customer_id = ANY($1::text[])`, [wanted]);
    const ids = new Map(rows.map((r) => [r.customer_id, r.platform_customer_id]));
    return commands.map((c) =>
      c.type === 'CreateTransaction' && c.terms.customerId && c.terms.platformCustomerId === undefined ? { ...c, terms: { ...c.terms, platformCustomerId: ids.get(c.terms.customerId) ?? null } } : c,
    );
  };

  async load(transactionId: string, tx?: EntityManager): Promise<TransactionState> {
    return fold(transactionDecider, (await this.store.readStream(tx ?? this.dataSource, transactionId)) as unknown as TransactionEvent[]);
  }

  /**
   * Places the hold now (the request path answers with the outcome); the timer retries it if this stops half-way.
   * `known`: the state the caller just wrote, so the stream is not read back.
   */
  async holdNow(transactionId: string, known?: TransactionState): Promise<TransactionState> {
    const state = known ?? (await this.load(transactionId));
    if (state.status === 'NONE') return state;
    return (await this.hold(state, (command) => this.apply(transactionId, state.platformId, command, { correlationId: transactionId, actor: 'payments' }))) ?? this.load(transactionId);
  }

  /** No transaction is open across a step's RPCs: each outcome is recorded in its own (`apply`). */
  private onTimer(timer: TimerRow): Promise<void> {
    const { transactionId, step } = timer.payload as { transactionId: string; step: Step };
    return this.step(transactionId, step, { correlationId: transactionId, causationId: timer.id, actor: 'timer' });
  }

  /** Repeatable: a step that already ran finds the state moved on, its RPCs replay by derived ids. */
  private async step(transactionId: string, step: Step, metadata: EventMetadata): Promise<void> {
    const state = await this.load(transactionId);
    if (state.status === 'NONE') return;
    const record = (command: TransactionCommand) => this.apply(transactionId, state.platformId, command, metadata);
    if (step === 'approval') {
      if (!awaitsApproval(state)) return;
      // The platform may answer at the very moment the window ends: then its answer stands.
      await record({ type: 'ApproveTransaction', now: now(), by: 'APPROVAL_WINDOW' }).catch((error: unknown) => {
        if (!(error instanceof DomainError && error.code === NOT_PENDING_APPROVAL)) throw error;
      });
      return;
    }
    if (step === 'hold') return void (await this.hold(state, record));
    if (step === 'rail') return this.rail(state, record);
    if (step === 'return' && state.status === 'COMPLETED' && state.rail.outcome === 'RETURNED') {
      await this.reverseSettlement(state);
      await record({ type: 'FailTransaction', now: now(), failureReason: 'PAYOUT_RETURNED', refund: null, unresolvedFunds: null });
    }
  }

  /** The state after the step, or undefined when it is not known without reading the stream. */
  private async hold(s: ExistingTransaction, record: (c: TransactionCommand) => Promise<TransactionState>): Promise<TransactionState | undefined> {
    if (s.status !== 'PENDING' || !s.plan.hold) return s;
    const caller = systemCaller(s.platformId, s.mode);
    try {
      await this.peers.ledger.placeHold(caller, { ...s.plan.hold, holdId: holdIdOf(s.transactionId), reference: s.transactionId });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'INSUFFICIENT_FUNDS')) throw error;
      return record({ type: 'FailTransaction', now: now(), failureReason: 'INSUFFICIENT_FUNDS', refund: null, unresolvedFunds: null });
    }
    try {
      return await record({ type: 'RecordFundsHeld', now: now() });
    } catch (error) {
      // Failed meanwhile (a racing first attempt saw insufficient funds): the hold must not outlive it.
      if (!(error instanceof DomainError && error.code === 'INVALID_STATE_TRANSITION')) throw error;
      await this.peers.ledger.releaseHold(caller, { accountId: s.plan.hold.accountId, holdId: holdIdOf(s.transactionId) });
      return undefined;
    }
  }

  private async rail(s: ExistingTransaction, record: (c: TransactionCommand) => Promise<TransactionState>): Promise<void> {
    if (!(s.status === 'PROCESSING' || (s.status === 'PENDING' && !s.plan.hold)) || awaitsApproval(s)) return;
    if (s.rail.outcome === 'CONNECTOR') return this.submitToRail(s, record);
    const script: SandboxRailScript = s.rail;
    const caller = systemCaller(s.platformId, s.mode);
    const reason = script.failureReason ?? 'QUOTE_EXECUTION_FAILED';
    switch (script.outcome) {
      case 'SUCCESS':
      case 'RETURNED':
        await this.postSettlement(s);
        await record({ type: 'CompleteTransaction', now: now() });
        return;
      case 'FAIL': {
        if (s.plan.hold) await this.peers.ledger.releaseHold(caller, { accountId: s.plan.hold.accountId, holdId: holdIdOf(s.transactionId) });
        // Realtime funds arrived from outside: failing sends them back.
        const refund = s.source.sourceType === 'REALTIME_FUNDING' ? this.refund(s, now(), 'COMPLETED', 'TRANSACTION_FAILED') : null;
        await record({ type: 'FailTransaction', now: now(), failureReason: reason, refund, unresolvedFunds: null });
        return;
      }
      case 'CANCELLED':
        await this.postSettlement(s);
        await this.reverseSettlement(s);
        await record({ type: 'FailTransaction', now: now(), failureReason: reason, refund: this.refund(s, now(), 'COMPLETED', 'USER_CANCELLATION'), unresolvedFunds: null });
        return;
      case 'REFUND_FAILED': {
        await this.postSettlement(s);
        const strand = s.plan.strand!;
        await this.post(s, strand);
        const parked = strand.legs.find((l) => l.purpose === 'SUSPENSE')!;
        const unresolvedFunds: UnresolvedFunds = { amount: parked.amount, currency: currencyObject(parked.currency), ledgerPurpose: 'SUSPENSE' };
        await record({ type: 'FailTransaction', now: now(), failureReason: reason, refund: this.refund(s, now(), 'FAILED', 'TRANSACTION_FAILED'), unresolvedFunds });
        return;
      }
    }
  }

  /**
   * A production payment goes to its connector: the connector's record of it and the transaction's
   * TransactionRailSubmitted.v1 commit together (Rails.submit); a repeat finds both. An order the rail cannot carry
   * (an account its format cannot address) fails the payment at once, its hold released.
   */
  private async submitToRail(s: ExistingTransaction, record: (c: TransactionCommand) => Promise<TransactionState>): Promise<void> {
    if (s.rail.outcome !== 'CONNECTOR' || s.railSubmission) return;
    const rails = this.requireRails();
    const { connectorId } = s.rail;
    let order: RailOrder;
    try {
      order = await this.orderOf(s);
      rails.validate(connectorId, order);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'NOT_IMPLEMENTED') throw error;
      await this.failBeforeSettlement(s, { paymentId: s.transactionId, kind: 'REJECTED', failureReason: s.type === 'INCOMING' ? 'COLLECTION_FAILED' : 'ACCOUNT_INVALID', railCode: error.code, source: 'validation' }, record);
      return;
    }
    await rails.submit(connectorId, order, async (tx, railReference) => {
      await this.apply(s.transactionId, s.platformId, { type: 'RecordRailSubmission', now: now(), connectorId, railReference }, { correlationId: s.transactionId, actor: 'payments' }, { tx });
    });
  }

  /** The rail's view of the payment: a credit to the destination account, or a debit (pull) of the source account. */
  private async orderOf(s: ExistingTransaction): Promise<RailOrder> {
    const pull = s.type === 'INCOMING';
    const party = pull ? s.source : s.destination;
    if (!('accountId' in party) || !party.accountId) throw new ApiError('INVALID_INPUT', 'the payment has no external account to move money with');
    const { account } = await this.peers.payableExternalAccount(systemCaller(s.platformId, s.mode), party.accountId);
    const amount = pull ? s.sentAmount : s.receivedAmount;
    return {
      paymentId: s.transactionId,
      platformId: s.platformId,
      mode: s.mode,
      kind: pull ? 'DEBIT' : 'CREDIT',
      paymentRail: s.rail.outcome === 'CONNECTOR' ? s.rail.paymentRail : (s.paymentRail ?? ''),
      currency: amount.currency,
      amount: amount.amount,
      externalAccountId: account.id,
      accountInfo: account.accountInfo,
      beneficiary: beneficiaryOf(account.accountInfo),
      reference: s.reference,
      // A transfer's description is its remittanceInformation; a quote's description is the platform's own note, and
      // the quote's remittanceInformation is not kept on the transaction yet, so a quote's payout carries none.
      ...(s.description && !s.quoteId ? { remittanceInformation: s.description } : {}),
    };
  }

  /**
   * A rail's outcome, applied by the payment's one writer (RailOutcomes) in the recorded order: what it does follows
   * from the transaction's status (`transactionEffect`): a settlement posts the ledger plan and completes; a rejection
   * or a return before settlement releases the hold and fails with the mapped reason; a return after it reverses the
   * settlement and fails with PAYOUT_RETURNED / COLLECTION_FAILED, the rail's code as failureDetail. A return the
   * account can no longer cover still mirrors the bank: `notReversible` is told, the shortfall is booked to the
   * platform's RETURN_SHORTFALL account, and the transaction fails all the same. Repeatable: a second run finds the
   * state moved on and the ledger replays by derived ids.
   */
  async applyRailOutcome(payment: RailPaymentRow, outcome: RailOutcome, notReversible: (why: string) => Promise<void> = async () => undefined): Promise<void> {
    const s = await this.load(payment.payment_id);
    if (s.status === 'NONE') return;
    const effect = transactionEffect(s.status, outcome.kind);
    if (effect === 'NONE') return;
    const record = (command: TransactionCommand) => this.apply(s.transactionId, s.platformId, command, { correlationId: s.transactionId, causationId: outcome.source, actor: `rail:${payment.connector_id}` });
    if (effect === 'SETTLE') {
      await this.postSettlement(s);
      await record({ type: 'CompleteTransaction', now: now() });
      return;
    }
    const failureReason = failureReasonOf(effect, s.type, outcome.failureReason);
    if (effect === 'FAIL_BEFORE_SETTLEMENT') return this.failBeforeSettlement(s, { ...outcome, failureReason }, record);
    try {
      await this.reverseSettlement(s);
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'INSUFFICIENT_FUNDS')) throw error;
      await notReversible(error.message);
      await this.reverseSettlement(s, 'RETURN_SHORTFALL');
    }
    await record({ type: 'FailTransaction', now: now(), failureReason, refund: null, unresolvedFunds: null, ...(outcome.railCode ? { railCode: outcome.railCode } : {}) });
  }

  private async failBeforeSettlement(s: ExistingTransaction, outcome: RailOutcome, record: (c: TransactionCommand) => Promise<TransactionState>): Promise<void> {
    if (s.plan.hold && s.status === 'PROCESSING') await this.peers.ledger.releaseHold(systemCaller(s.platformId, s.mode), { accountId: s.plan.hold.accountId, holdId: holdIdOf(s.transactionId) });
    const refund = s.source.sourceType === 'REALTIME_FUNDING' ? this.refund(s, now(), 'COMPLETED', 'TRANSACTION_FAILED') : null;
    const failureReason = outcome.failureReason ?? failureReasonOf('FAIL_BEFORE_SETTLEMENT', s.type, undefined);
    await record({ type: 'FailTransaction', now: now(), failureReason, refund, unresolvedFunds: null, ...(outcome.railCode ? { railCode: outcome.railCode } : {}) });
  }

  private requireRails(): Rails {
    if (!this.rails) throw new Error('the transaction saga has no rails connected');
    return this.rails;
  }

  private refund(s: ExistingTransaction, at: string, status: TransactionRefund['status'], reason: TransactionRefund['reason']): TransactionRefund {
    return { reference: `${s.transactionId}/refund`, initiatedAt: at, status, reason, ...(status === 'COMPLETED' ? { settledAt: at } : {}) };
  }

  private async postSettlement(s: ExistingTransaction): Promise<void> {
    for (const entry of s.plan.settle) await this.post(s, entry);
  }

  /** `shortfallTo`: what an account can no longer give back is taken from that system account instead (accounts' reverse). */
  private async reverseSettlement(s: ExistingTransaction, shortfallTo?: 'RETURN_SHORTFALL'): Promise<void> {
    const caller = systemCaller(s.platformId, s.mode);
    for (const entry of s.plan.settle) {
      await this.peers.ledger.reverse(caller, { originalEntryId: entryIdOf(s.transactionId, entry.key), reversalEntryId: reversalIdOf(s.transactionId, entry.key), ...(shortfallTo ? { shortfallTo } : {}) });
    }
  }

  private async post(s: ExistingTransaction, entry: PlannedEntry): Promise<void> {
    await this.peers.ledger.transfer(systemCaller(s.platformId, s.mode), { entryId: entryIdOf(s.transactionId, entry.key), legs: entry.legs, reference: s.transactionId, kind: `PAYMENT_${entry.key.toUpperCase()}` });
  }

  /**
   * The read model and each transaction's next step, for every command of a group at once, in the append's own
   * statement (projectAlongside): a transaction's latest state decides (as `transactionRows` keeps it). Past PENDING
   * the hold's safety-net timer has nothing left to do, so it is deleted in the same statement.
   */
  private readonly projectAlongside = (items: readonly { stateAfter: TransactionState }[]): Statement[] => {
    const { statement, latest } = transactionRows(items.map((i) => i.stateAfter), IF_APPENDED);
    const next: ScheduleTimer[] = [];
    const cancelled: string[] = [];
    for (const s of latest) {
      const step = nextStep(s);
      const holdTimer = s.plan.hold && s.status !== 'PENDING' ? stepTimerId(s.transactionId, 'hold') : undefined;
      if (step) {
        next.push({ id: stepTimerId(s.transactionId, step.step), replaces: holdTimer, name: TRANSACTION_STEP_TIMER, delayMs: step.delayMs, realTime: step.realTime, streamId: s.transactionId, platformId: s.platformId, payload: { transactionId: s.transactionId, step: step.step } });
      } else if (holdTimer && s.status === 'FAILED') cancelled.push(holdTimer);
    }
    return [...(statement ? [statement] : []), ...this.timers.scheduleAlongside(next, cancelled).statements];
  };

}
