import { inCommandSpan, withTraceparent } from './command-tracing';
import { Decider, DomainError, DomainEvent } from './decider';
import { GroupCommit, GroupCommitOptions } from './group-commit';
import { assertFoldsCurrent, foldStream, Loaded, lockAndFold, StreamStateCache } from './state-cache';
import { EventMetadata } from './envelope';
import { EventStore, RecordedEvent, WrongExpectedVersionError } from './event-store';
import { Transactional } from './migrations';
import { queryPrepared, SqlExecutor, Statement } from './sql';
import { appendNewStreams, NewStream } from './new-streams';

/** An inline projection: updates read models in the same transaction as the append (read-your-writes). */
export type Projection<Tx, S, E extends DomainEvent> = (tx: Tx, events: readonly RecordedEvent<E>[], stateAfter: S) => Promise<void>;

export interface CommandRequest<Tx, S, C, E extends DomainEvent> {
  decider: Decider<S, C, E>;
  streamId: string;
  command: C;
  platformId?: string | null;
  metadata?: EventMetadata;
  project?: Projection<Tx, S, E>;
  /**
   * Read-model writes sent in the append's own statement (`withAlongside`: no round trip of their own), set-based:
   * one call for every command of a group sharing this function (one statement per read model for all, not one
   * each), in arrival order; a stream may appear more than once, its last item is its latest state, and no row may be
   * written twice. The single path calls it with one item.
   */
  projectAlongside?: (items: readonly { streamId: string; events: readonly E[]; stateAfter: S }[]) => readonly Statement[];
  /**
   * Completes commands with what they need looked up (a customer's platform id) in the command's transaction before
   * they are decided, set-based: one call for every command of a group sharing this function (one statement for all,
   * not one each), answering the commands in the same order. Must only read.
   */
  completeAll?: (tx: Tx, commands: readonly C[]) => Promise<readonly C[]>;
  /** Runs in the append's transaction when the command appended events: an Idempotency-Key claim (idempotency-claims.ts). */
  claim?: (tx: Tx) => Promise<void>;
  /**
   * The stream id was generated for this command (a fresh uuid): there is nothing to lock or read, and the insert's
   * unique (stream_id, stream_version) still refuses a stream that exists (409 CONFLICT). Never set it for an id a
   * retry or redelivery can repeat.
   */
  newStream?: boolean;
  /**
   * New streams appended in the same transaction when the command appended events (and not when it decided nothing):
   * the record of an operator's action (`operatorActionStream`, libs/contracts), which its service's relay publishes
   * with the effect it records, or not at all. Each must be new: a repeat is a 409, never a second record.
   */
  also?: readonly NewStream[];
}


/**
 * Commands on several streams of one decider that must all be written or none (a journal entry's legs), in the
 * caller's transaction: see `decideAndAppendAll`.
 */
export interface MultiStreamRequest<Tx, S, C, E extends DomainEvent> {
  decider: Decider<S, C, E>;
  /** Decided in this order; a stream's commands against its one fold. */
  commands: readonly { streamId: string; command: C }[];
  platformId?: string | null;
  metadata?: EventMetadata;
  /**
   * Runs under the locks on the streams' folds, before anything is decided: it may refuse (throw) or answer false,
   * and then nothing is decided or written (a replay). Its queries run in the transaction (an idempotency claim).
   */
  admit?: (tx: Tx, states: ReadonlyMap<string, S>) => Promise<boolean>;
  /** One call for every stream that appended: set-based read models (one statement for all streams, not one each). */
  project?: (tx: Tx, written: readonly { streamId: string; events: readonly RecordedEvent<E>[]; state: S }[]) => Promise<void>;
  /** Like `project`, as statements sent in the append's own statement (`withAlongside`); each stream appears once. */
  projectAlongside?: (written: readonly { streamId: string; events: readonly E[]; state: S }[]) => readonly Statement[];
}

export interface CommandResult<S, E extends DomainEvent> {
  state: S;
  /** Events this command appended (empty when the decider decided nothing needs to change). */
  events: RecordedEvent<E>[];
  version: number;
}

/**
 * The write path (DESIGN §4): load the stream, fold, decide, append with the expected version and project, all in
 * one transaction. `decideAndAppend` is one attempt inside a transaction the caller owns (so a consumer can add
 * its inbox row to it); `execute` owns the transaction and retries on a version conflict before answering 409.
 */
export class CommandExecutor<Tx extends SqlExecutor> {
  private readonly states: StreamStateCache;
  private readonly group?: GroupCommit<Tx>;
  /** The store's schema, for the spans (`db.namespace`). */
  private readonly schema?: string;

  constructor(
    private readonly db: Transactional<Tx>,
    private readonly store: EventStore,
    private readonly versionConflictRetriesMax = 5,
    /** Folded states kept for hot streams (0 turns the cache off); see StreamStateCache. */
    stateCacheEntriesMax = 2_000,
    /**
     * Concurrent `execute` calls written in shared transactions (group-commit.ts); `false`: one transaction each. One
     * group in flight: what arrives while it is written waits and goes in the next group, so groups grow with the load
     * (measured, issue #30: 1.7 transactions per transfer-out instead of 3.3 with 4 in flight).
     */
    grouping: GroupCommitOptions | false = { groupsInFlightMax: 1, groupSizeMax: 64 },
  ) {
    this.schema = (store as { schema?: string }).schema;
    this.states = new StreamStateCache(stateCacheEntriesMax);
    if (grouping) this.group = new GroupCommit(db, store, this.states, (request) => this.alone(request), grouping);
  }

  /** Decides and appends in a transaction of its own (shared with concurrent commands when grouping), retrying conflicts. */
  execute<S, C, E extends DomainEvent>(request: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    return inCommandSpan(request.streamId, this.schema, () => {
      const traced = { ...request, metadata: withTraceparent(request.metadata) };
      return this.group ? (this.group.submit(traced as never) as Promise<CommandResult<S, E>>) : this.alone(traced);
    });
  }

  private alone<S, C, E extends DomainEvent>(request: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    return retryOnConflict(() => this.db.transaction((tx) => this.attempt(tx, request)), this.versionConflictRetriesMax);
  }


  /** One attempt in the caller's transaction (a consumer adding its inbox row), in a span of its own. */
  decideAndAppend<S, C, E extends DomainEvent>(tx: Tx, request: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    return inCommandSpan(request.streamId, this.schema, () => this.attempt(tx, { ...request, metadata: withTraceparent(request.metadata) }));
  }

  /**
   * A multi-stream request in the caller's transaction, set-based: its streams locked in one statement (lockAndFold),
   * the folds admitted, every command decided (one refusal refuses all and nothing is written), every stream's
   * events appended in one statement, each guarded by the fold it was decided on, then projected once. A stale
   * cached fold, whether the guard or a refusal finds it (state-cache.ts), is WrongExpectedVersionError: the
   * caller's retry decides again on the streams read whole. By stream: the state after and the events appended;
   * undefined when `admit` answered false.
   */
  async decideAndAppendAll<S, C, E extends DomainEvent>(tx: Tx, request: MultiStreamRequest<Tx, S, C, E>): Promise<Map<string, CommandResult<S, E>> | undefined> {
    const { decider } = request;
    const streamIds = [...new Set(request.commands.map((c) => c.streamId))];
    const folds = (await lockAndFold(tx, this.store, this.states, new Map(streamIds.map((id) => [id, decider])))) as Map<string, Loaded<S>>;
    if (request.admit && !(await request.admit(tx, new Map([...folds].map(([id, fold]) => [id, fold.state]))))) return undefined;
    const decided = new Map(streamIds.map((id) => [id, { state: folds.get(id)!.state, events: [] as E[] }]));
    for (const { streamId, command } of request.commands) {
      const stream = decided.get(streamId)!;
      const decision = decider.decide(command, stream.state);
      if (decision instanceof DomainError) {
        // Refused on a cached fold that is stale: the retry decides again on the streams read whole.
        await assertFoldsCurrent(tx, this.store, this.states, new Map([...folds].filter(([, fold]) => fold.cached)));
        throw decision;
      }
      stream.events.push(...decision);
      stream.state = decision.reduce((s, e) => decider.evolve(s, e), stream.state);
    }
    const writes = streamIds.filter((id) => decided.get(id)!.events.length > 0);
    // A cached fold that decided nothing is not proven by an append: checked like a refusal.
    await assertFoldsCurrent(tx, this.store, this.states, new Map([...folds].filter(([id, fold]) => fold.cached && decided.get(id)!.events.length === 0)));
    const metadata = withTraceparent(request.metadata);
    let appended: RecordedEvent<E>[][];
    const alongside = request.projectAlongside && writes.length > 0 ? request.projectAlongside(writes.map((streamId) => ({ streamId, ...decided.get(streamId)! }))) : [];
    try {
      appended = (await this.store.appendMany(tx, writes.map((streamId) => {
        const { version, lastEventId } = folds.get(streamId)!;
        return { streamId, after: version, events: decided.get(streamId)!.events, options: { platformId: request.platformId, metadata }, guard: { version, eventId: lastEventId } };
      }), alongside)) as RecordedEvent<E>[][];
    } catch (error) {
      for (const id of streamIds) this.states.forget(id);
      // An empty stream's guard is the unique (stream_id, stream_version): another writer created it first.
      if (isUniqueViolation(error)) throw new WrongExpectedVersionError(writes.join(','), 'no_stream');
      throw error;
    }
    const written = writes.map((streamId, i) => ({ streamId, events: appended[i], state: decided.get(streamId)!.state }));
    if (request.project && written.length > 0) await request.project(tx, written);
    const results = new Map<string, CommandResult<S, E>>();
    for (const streamId of streamIds) results.set(streamId, { state: decided.get(streamId)!.state, events: [], version: folds.get(streamId)!.version });
    for (const { streamId, events, state } of written) {
      const version = folds.get(streamId)!.version + events.length;
      this.states.remember(streamId, decider, state, version, events[events.length - 1].eventId);
      results.set(streamId, { state, events: [...events], version });
    }
    return results;
  }

  private async attempt<S, C, E extends DomainEvent>(tx: Tx, incomplete: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    const request = incomplete.completeAll ? { ...incomplete, command: (await incomplete.completeAll(tx, [incomplete.command]))[0] } : incomplete;
    let loaded: Loaded<S> = request.newStream ? { state: request.decider.initialState, version: 0 } : await this.load(tx, request);
    let decision = request.decider.decide(request.command, loaded.state);
    // No append will prove a cached fold that refused or decided nothing (a replay answered "done"): check it.
    const unproven = (d: typeof decision) => d instanceof DomainError || d.length === 0;
    if (unproven(decision) && loaded.cached && (await this.isStale(tx, request.streamId, loaded))) {
      loaded = await this.readWhole(tx, request);
      decision = request.decider.decide(request.command, loaded.state);
    }
    const { state, version } = loaded;
    if (decision instanceof DomainError) throw decision;
    if (decision.length === 0) return { state, events: [], version };
    const stateAfter = decision.reduce((s, e) => request.decider.evolve(s, e), state);
    let appended: RecordedEvent<E>[];
    try {
      appended = (await this.store.append(tx, request.streamId, version, decision, {
        platformId: request.platformId,
        metadata: request.metadata,
        expectedLastEventId: loaded.lastEventId,
        alongside: request.projectAlongside?.([{ streamId: request.streamId, events: decision, stateAfter }]),
      })) as RecordedEvent<E>[];
    } catch (error) {
      // The fold was stale (cached past a rollback, or another writer's append): the retry reads the stream whole.
      if (error instanceof WrongExpectedVersionError) this.states.forget(request.streamId);
      throw error;
    }
    if (request.claim) await request.claim(tx);
    await appendNewStreams(tx, this.store, request.also, { platformId: request.platformId, metadata: request.metadata });
    if (request.project) await request.project(tx, appended, stateAfter);
    this.states.remember(request.streamId, request.decider, stateAfter, version + appended.length, appended[appended.length - 1].eventId);
    return { state: stateAfter, events: appended, version: version + appended.length };
  }

  private async load<S, C, E extends DomainEvent>(tx: Tx, request: CommandRequest<Tx, S, C, E>): Promise<Loaded<S>> {
    // Writers of one stream queue here instead of racing: under contention (many debits on one account) the
    // optimistic check would otherwise turn most of them into retries and, past the bound, 409s. The unique
    // (stream_id, stream_version) stays as the safety net for writers that bypass this path.
    await queryPrepared(tx, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [request.streamId]);
    // A cached fold is used as it is: the append's guard (expectedLastEventId) proves it current or refuses it.
    const cached = this.states.get<S>(request.streamId, request.decider);
    return cached ?? this.readWhole(tx, request);
  }

  private async readWhole<S, C, E extends DomainEvent>(tx: Tx, request: CommandRequest<Tx, S, C, E>): Promise<Loaded<S>> {
    const loaded = foldStream(request.decider, await this.store.readStream(tx, request.streamId));
    this.states.remember(request.streamId, request.decider, loaded.state, loaded.version, loaded.lastEventId);
    return loaded;
  }

  /** A cached fold a command was refused on, checked (state-cache.ts): stale, it is forgotten. */
  private async isStale(tx: Tx, streamId: string, fold: Loaded<unknown>): Promise<boolean> {
    const stale = (await this.store.staleOf(tx, [{ streamId, version: fold.version, eventId: fold.lastEventId }])).size > 0;
    if (stale) this.states.forget(streamId);
    return stale;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e.code === '23505' || e.driverError?.code === '23505';
}

/** Re-runs `attempt` while it fails with a version conflict, up to `retriesMax` extra times; then the 409 stands. */
export async function retryOnConflict<T>(attempt: () => Promise<T>, retriesMax: number): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || retry >= retriesMax) throw error;
      // Small jittered pause so competing writers do not collide again in lockstep.
      await new Promise((r) => setTimeout(r, Math.random() * 5 * (retry + 1)));
    }
  }
}
