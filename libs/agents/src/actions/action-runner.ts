import type { DataSource, EntityManager } from 'typeorm';
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { AgentAction, ApiError, canonicalJson, CallerContext, Quote, Transaction, TransferInRequest, TransferOutRequest } from '@payments/contracts';
import { CommandExecutor, CommandRequest, DomainError, EventMetadata, fold, IdempotencyClaims, PostgresEventStore, queryRows, ScheduleTimer, TimerHandler, TimerRow } from '@payments/eventsourcing';
import { agentDecider, AgentCommand } from '../agents/agent.decider';
import { AgentEvent } from '../agents/agent.events';
import { projectAgent } from '../agents/agent.projection';
import { AgentState } from '../agents/agent.state';
import { AgentPeers, systemCaller } from '../peers';
import { ActionCommand, actionDecider } from './action.decider';
import { quoteStep, transactionFailure } from './action-outcome';
import { ActionTerms, AgentActionEvent } from './action.events';
import { projectAction } from './action.projection';
import { ActionState, ExistingAction } from './action.state';
import { toAgentAction } from './action.view';

export const ACTION_EXECUTE_TIMER = 'agents.action.execute';
export const RESERVATION_CHECK_TIMER = 'agents.reservation.check';
const TIMER_NAMESPACE = '6f1d2c8b-4a57-4e93-b0c6-d2a8e5f7139c';
/** The timer that releases an action's reservation if the action was never recorded (a crash between the two). */
const reservationCheckOf = (actionId: string) => uuidv5(`${actionId}/reservation`, TIMER_NAMESPACE);
/** Safety net for an action the request could not run to the end (real time). */
const EXECUTE_RETRY_MS = 2_000;
/** A reservation whose action was never recorded (a crash in between) is given back after this (real time). */
const RESERVATION_CHECK_MS = 60_000;
/** How long a run waits for payments to open an executed quote's transaction before leaving it to the timer. */
const QUOTE_TRANSACTION_WAIT_MS = 2_000;

/** The idempotency claims' operation name of an action. */
const ACTION_CLAIM = 'agent-action';
const now = () => new Date().toISOString();
const isClientError = (error: unknown): error is ApiError => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/**
 * Agent actions: an action takes its amount from the agent's allowance (on the agent's stream), is recorded, and runs
 * at once or when the platform approves it. The run is a durable step: it is recorded with a timer, made with the
 * platform as caller (transfers under an Idempotency-Key derived from the action, quotes by their own state), and its
 * outcome recorded; a failure gives the allowance back. A repeated run has one effect.
 */
export class ActionRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: PostgresEventStore,
    private readonly executor: CommandExecutor<EntityManager>,
    private readonly timers: { schedule(tx: EntityManager, timer: ScheduleTimer): Promise<string>; scheduleMany(tx: EntityManager, timers: readonly ScheduleTimer[], cancelled: readonly string[]): Promise<string[]> },
    private readonly peers: AgentPeers,
    private readonly claims: IdempotencyClaims,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  timerHandlers(): Record<string, TimerHandler> {
    return {
      [ACTION_EXECUTE_TIMER]: (timer) => this.run((timer.payload as { actionId: string }).actionId, this.timerMetadata(timer)),
      [RESERVATION_CHECK_TIMER]: (timer) => this.checkReservation(timer),
    };
  }

  /**
   * Takes the allowance and records the action; runs it when it needs no approval. One action per Idempotency-Key:
   * a retry answers the action as it is now.
   */
  async submit(caller: CallerContext, terms: ActionTerms, allowance: { amount: number; perTransactionLimit: number }): Promise<AgentAction> {
    const metadata = { correlationId: caller.correlationId, actor: terms.agentId };
    return this.claims.run(
      this.claimScope(caller, terms.agentId),
      ACTION_CLAIM,
      terms.actionId,
      async (claim) => {
        await this.agentCommand(terms.platformId, terms.agentId, { type: 'ReserveSpend', actionId: terms.actionId, amount: allowance.amount, perTransactionLimit: allowance.perTransactionLimit, now: terms.createdAt }, metadata, (tx) =>
          this.timers.schedule(tx, { id: reservationCheckOf(terms.actionId), name: RESERVATION_CHECK_TIMER, delayMs: RESERVATION_CHECK_MS, realTime: true, streamId: terms.agentId, platformId: terms.platformId, payload: { agentId: terms.agentId, actionId: terms.actionId } }),
        );
        const state = await this.record(terms.actionId, terms.platformId, { type: 'Submit', terms }, metadata, claim);
        if (state.status !== 'NONE' && state.executing) await this.run(terms.actionId, metadata).catch((error: unknown) => this.log(`agents: ${terms.actionId} runs on its timer`, error));
        return this.view(terms.actionId);
      },
      (existing) => this.view(existing),
    );
  }

  /**
   * The action this request's Idempotency-Key already made, as it is now; undefined when the key made none (or the
   * request has no key). For checks on what the first attempt itself changes (the quote it executed is no longer
   * PENDING): a retry must answer the action, not the check.
   */
  async replayOf(caller: CallerContext, agentId: string): Promise<AgentAction | undefined> {
    const scope = this.claimScope(caller, agentId);
    const existing = scope ? await this.claims.find(this.dataSource, scope, ACTION_CLAIM) : undefined;
    return existing ? this.view(existing) : undefined;
  }

  /** Keys are the agent's own: two agents (or an agent and its platform) never share an action by key. */
  private claimScope(caller: CallerContext, agentId: string) {
    return caller.idempotency ? { platformId: caller.platformId, mode: caller.mode, key: `${agentId}:${caller.idempotency.key}`, requestHash: caller.idempotency.requestHash } : undefined;
  }

  /**
   * The platform approves a waiting action and it runs. Once per Idempotency-Key: a retry whose first attempt
   * recorded the decision (its answer lost in a crash) is answered the action as it is now, not 409 for the state
   * that attempt left.
   */
  async approve(caller: CallerContext, actionId: string): Promise<AgentAction> {
    const metadata = { correlationId: caller.correlationId, actor: caller.clientId };
    return this.claims.run(this.decisionScope(caller, actionId), 'agent-action-approve', actionId, async (claim) => {
      const s = await this.load(actionId);
      if (s.status === 'NONE') throw new DomainError('AGENT_ACTION_NOT_FOUND', 'agent action not found');
      await this.record(actionId, s.platformId, { type: 'Approve', by: caller.clientId, now: now() }, metadata, claim);
      await this.run(actionId, metadata).catch((error: unknown) => this.log(`agents: ${actionId} runs on its timer`, error));
      return this.view(actionId);
    }, () => this.view(actionId));
  }

  /** The platform rejects a waiting action (its allowance given back); once per Idempotency-Key, as approve. */
  async reject(caller: CallerContext, actionId: string, reason: string | undefined): Promise<AgentAction> {
    const metadata = { correlationId: caller.correlationId, actor: caller.clientId };
    return this.claims.run(this.decisionScope(caller, actionId), 'agent-action-reject', actionId, async (claim) => {
      const s = await this.load(actionId);
      if (s.status === 'NONE') throw new DomainError('AGENT_ACTION_NOT_FOUND', 'agent action not found');
      await this.record(actionId, s.platformId, { type: 'Reject', by: caller.clientId, reason, now: now() }, metadata, claim);
      await this.release(s, metadata);
      return this.view(actionId);
    }, async () => {
      // The first attempt may have died between the rejection and the release: give the allowance back (once).
      const s = await this.load(actionId);
      if (s.status !== 'NONE') await this.release(s, metadata);
      return this.view(actionId);
    });
  }

  /** A decision's key, per action: deleting an agent rejects each of its waiting actions under the one DELETE's key. */
  private decisionScope(caller: CallerContext, actionId: string) {
    return caller.idempotency ? { platformId: caller.platformId, mode: caller.mode, key: `${actionId}:${caller.idempotency.key}`, requestHash: caller.idempotency.requestHash } : undefined;
  }

  async load(actionId: string, tx?: EntityManager): Promise<ActionState> {
    return fold(actionDecider, (await this.store.readStream(tx ?? this.dataSource, actionId)) as unknown as AgentActionEvent[]);
  }

  async view(actionId: string): Promise<AgentAction> {
    const s = await this.load(actionId);
    if (s.status === 'NONE') throw new DomainError('AGENT_ACTION_NOT_FOUND', 'agent action not found');
    return toAgentAction(s);
  }

  /** Runs an APPROVED action that has not run (repeatable). */
  private async run(actionId: string, metadata: EventMetadata): Promise<void> {
    const s = await this.load(actionId);
    if (s.status === 'NONE' || !s.executing) return;
    const caller = systemCaller(s.platformId, s.mode, { correlationId: metadata.correlationId });
    try {
      const { transaction, quote } = await this.execute(s, caller);
      const failureReason = transactionFailure(transaction);
      if (failureReason) {
        // The operation ran and its transaction failed at once (insufficient funds, ...): the action failed.
        await this.record(actionId, s.platformId, { type: 'Fail', failureReason, message: `transaction ${transaction.id} failed: ${failureReason}`, transaction, quote, now: now() }, metadata);
        await this.release(s, metadata);
        return;
      }
      await this.record(actionId, s.platformId, { type: 'RecordExecution', transaction, quote, now: now() }, metadata);
    } catch (error) {
      if (!isClientError(error) && !(error instanceof DomainError)) throw error; // unavailable: the timer runs it again
      const code = error instanceof ApiError || error instanceof DomainError ? error.code : 'EXECUTION_FAILED';
      await this.record(actionId, s.platformId, { type: 'Fail', failureReason: code, message: error.message, now: now() }, metadata);
      await this.release(s, metadata);
    }
  }

  private async execute(s: ExistingAction, caller: CallerContext): Promise<{ transaction: NonNullable<ExistingAction['transaction']>; quote?: Quote }> {
    if (s.type === 'EXECUTE_QUOTE') {
      const quoteId = s.quote!.id;
      let quote = await this.peers.quote(caller, quoteId);
      const step = quoteStep(quote, Date.now());
      if (step === 'EXPIRED') throw new DomainError('QUOTE_EXPIRED', `quote ${quoteId} expired at ${quote.expiresAt}`);
      if (step === 'NOT_EXECUTABLE') throw new DomainError('INVALID_STATE_TRANSITION', `quote ${quoteId} is ${quote.status}: it cannot be executed`);
      if (step === 'EXECUTE') quote = await this.peers.executeQuote(caller, quoteId, s.walletSignature);
      // Executed (by this run, or an earlier run of this step): its transaction is the one.
      return { transaction: await this.quoteTransaction(caller, quote.transactionId, quote.status === 'PROCESSING'), quote };
    }
    const body = s.transfer!;
    const idempotency = { key: `agent-action:${s.actionId}`, requestHash: createHash('sha256').update(canonicalJson(body)).digest('hex') };
    const keyed = { ...caller, idempotency };
    const transaction = s.type === 'TRANSFER_OUT' ? await this.peers.transferOut(keyed, body as TransferOutRequest) : await this.peers.transferIn(keyed, body as TransferInRequest);
    return { transaction };
  }

  /**
   * The transaction of an executed quote. Payments opens it from quoting's QuoteExecuted.v1, a moment after the
   * execution: it is waited for (and for its hold, so that insufficient funds show), and when it is not there yet the
   * step is left to its timer. Its absence is never the action's failure: the quote was executed.
   */
  private async quoteTransaction(caller: CallerContext, transactionId: string, justExecuted: boolean): Promise<Transaction> {
    const deadline = Date.now() + QUOTE_TRANSACTION_WAIT_MS;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      const transaction = await this.peers.transaction(caller, transactionId).catch((error: unknown) => {
        // A quote that ended (COMPLETED, FAILED) without a transaction never ran: that is final.
        if (error instanceof ApiError && error.code === 'TRANSACTION_NOT_FOUND' && justExecuted) return undefined;
        throw error;
      });
      if (transaction && (transaction.status !== 'PENDING' || Date.now() >= deadline)) return transaction;
      if (Date.now() >= deadline) throw new Error(`transaction ${transactionId} of the executed quote is not open yet: the step runs again`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** A rejected or failed action gives its amount back to the allowance. */
  private async release(s: ExistingAction, metadata: EventMetadata): Promise<void> {
    await this.agentCommand(s.platformId, s.agentId, { type: 'ReleaseSpend', actionId: s.actionId, now: now() }, metadata).catch((error: unknown) => {
      if (!(error instanceof DomainError && error.code === 'AGENT_NOT_FOUND')) throw error; // a deleted agent has no allowance left to give back to
    });
  }

  /** A reservation without its action (the request stopped between the two): given back. */
  private async checkReservation(timer: TimerRow): Promise<void> {
    const { agentId, actionId } = timer.payload as { agentId: string; actionId: string };
    const [row] = await queryRows<{ n: number }>(this.dataSource, `SELECT count(*)::int AS n FROM agent_actions WHERE action_id = $1`, [actionId]);
    if (row.n > 0) return;
    await this.agentCommand(timer.platform_id, agentId, { type: 'ReleaseSpend', actionId, now: now() }, this.timerMetadata(timer)).catch((error: unknown) => {
      if (!(error instanceof DomainError && error.code === 'AGENT_NOT_FOUND')) throw error;
    });
  }

  private async agentCommand(platformId: string | null, agentId: string, command: AgentCommand, metadata: EventMetadata, also?: (tx: EntityManager) => Promise<unknown>): Promise<void> {
    const request: CommandRequest<EntityManager, AgentState, AgentCommand, AgentEvent> = {
      decider: agentDecider,
      streamId: agentId,
      platformId,
      metadata,
      command,
      project: async (tx, events, state) => {
        await projectAgent(tx, events, state);
        if (events.length > 0) await also?.(tx);
      },
    };
    await this.executor.execute(request);
  }

  private async record(actionId: string, platformId: string, command: ActionCommand, metadata: EventMetadata, claim?: (tx: EntityManager) => Promise<void>): Promise<ActionState> {
    const result = await this.executor.execute({
      decider: actionDecider,
      streamId: actionId,
      platformId,
      metadata,
      command,
      claim,
      project: async (tx, events, state) => {
        await projectAction(tx, events, state);
        // Once the action is recorded its reservation is accounted for: the check for a crash between the two
        // would find the action and do nothing, a minute later, for every action.
        if (command.type === 'Submit' && events.length > 0) await this.timers.scheduleMany(tx, [], [reservationCheckOf(actionId)]);
        if (state.status !== 'NONE' && state.executing && events.length > 0) {
          await this.timers.schedule(tx, { id: uuidv5(`${actionId}/execute/${state.updatedAt}`, TIMER_NAMESPACE), name: ACTION_EXECUTE_TIMER, delayMs: EXECUTE_RETRY_MS, realTime: true, streamId: actionId, platformId, payload: { actionId } });
        }
      },
    });
    return result.state;
  }

  private timerMetadata(timer: TimerRow): EventMetadata {
    return { correlationId: timer.stream_id ?? undefined, causationId: timer.id, actor: 'timer' };
  }
}
