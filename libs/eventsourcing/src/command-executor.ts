import { Decider, DomainError, DomainEvent } from './decider';
import { StreamStateCache } from './state-cache';
import { EventMetadata } from './envelope';
import { EventStore, RecordedEvent, WrongExpectedVersionError } from './event-store';
import { Transactional } from './migrations';
import { SqlExecutor } from './sql';

/** An inline projection: updates read models in the same transaction as the append (read-your-writes). */
export type Projection<Tx, S, E extends DomainEvent> = (tx: Tx, events: readonly RecordedEvent<E>[], stateAfter: S) => Promise<void>;

export interface CommandRequest<Tx, S, C, E extends DomainEvent> {
  decider: Decider<S, C, E>;
  streamId: string;
  command: C;
  platformId?: string | null;
  metadata?: EventMetadata;
  project?: Projection<Tx, S, E>;
  /** Runs in the append's transaction when the command appended events: an Idempotency-Key claim (idempotency-claims.ts). */
  claim?: (tx: Tx) => Promise<void>;
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

  constructor(
    private readonly db: Transactional<Tx>,
    private readonly store: EventStore,
    private readonly versionConflictRetriesMax = 5,
    /** Folded states kept for hot streams (0 turns the cache off); see StreamStateCache. */
    stateCacheEntriesMax = 2_000,
  ) {
    this.states = new StreamStateCache(stateCacheEntriesMax);
  }

  execute<S, C, E extends DomainEvent>(request: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    return retryOnConflict(() => this.db.transaction((tx) => this.decideAndAppend(tx, request)), this.versionConflictRetriesMax);
  }

  async decideAndAppend<S, C, E extends DomainEvent>(tx: Tx, request: CommandRequest<Tx, S, C, E>): Promise<CommandResult<S, E>> {
    // Writers of one stream queue here instead of racing: under contention (many debits on one account) the
    // optimistic check would otherwise turn most of them into retries and, past the bound, 409s. The unique
    // (stream_id, stream_version) stays as the safety net for writers that bypass this path.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [request.streamId]);
    const loaded = await this.states.load(tx, request.streamId, request.decider, (db, id, from) => this.store.readStream(db, id, from));
    const { state, version } = loaded;
    this.states.remember(request.streamId, request.decider, state, version, loaded.lastEventId);
    const decision = request.decider.decide(request.command, state);
    if (decision instanceof DomainError) throw decision;
    if (decision.length === 0) return { state, events: [], version };
    const appended = (await this.store.append(tx, request.streamId, version, decision, {
      platformId: request.platformId,
      metadata: request.metadata,
    })) as RecordedEvent<E>[];
    if (request.claim) await request.claim(tx);
    const stateAfter = decision.reduce((s, e) => request.decider.evolve(s, e), state);
    if (request.project) await request.project(tx, appended, stateAfter);
    this.states.remember(request.streamId, request.decider, stateAfter, version + appended.length, appended[appended.length - 1].eventId);
    return { state: stateAfter, events: appended, version: version + appended.length };
  }
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
