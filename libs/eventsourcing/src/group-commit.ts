import type { CommandRequest, CommandResult } from './command-executor';
import { activeContext, inContext } from './command-tracing';
import type { Context } from '@payments/observability';
import { DomainError, DomainEvent } from './decider';
import type { EventStore, RecordedEvent } from './event-store';
import type { Transactional } from './migrations';
import type { SqlExecutor } from './sql';
import { assertFoldsCurrent, Loaded, lockAndFold, StreamStateCache } from './state-cache';
import { appendNewStreams } from './new-streams';
import { Batcher } from './batcher';

// The group handles requests of any state, command and event types; each is decided with its own decider.
type AnyRequest<Tx> = CommandRequest<Tx, any, any, DomainEvent>;
type AnyResult = CommandResult<any, DomainEvent>;

interface Pending<Tx> {
  request: AnyRequest<Tx>;
  /** The submitter's trace context (its command span): a group's queries run in its first command's. */
  context: Context;
  resolve(result: AnyResult): void;
  reject(error: unknown): void;
}

/** What deciding one queued command came to, before anything is written. */
type Decided<Tx> =
  | { pending: Pending<Tx>; refused: DomainError }
  | { pending: Pending<Tx>; result: AnyResult }
  | { pending: Pending<Tx>; after: number; events: readonly DomainEvent[]; stateAfter: unknown; appended?: RecordedEvent[] };

export interface GroupCommitOptions {
  /** Groups written at once (each on its own connection); 1 writes one group at a time. */
  groupsInFlightMax: number;
  groupSizeMax: number;
}

/**
 * Concurrent commands written together (group commit, ADR 0004): a group is every command queued while the groups
 * in flight were being written. Its streams are locked in one statement and read in one, its events inserted in
 * one, and it commits once, instead of a transaction per command. Commands on one stream are decided in arrival
 * order against one fold (a hot account's holds). A command its decider refuses fails alone; any database error
 * (a projection's unique index, an Idempotency-Key claimed twice, a deadlock) rolls the group back and each of its
 * commands runs on its own, so one bad command never fails another. A lone command takes the single path at once.
 */
export class GroupCommit<Tx extends SqlExecutor> {
  private readonly batcher: Batcher<Pending<Tx>>;

  constructor(
    private readonly db: Transactional<Tx>,
    private readonly store: EventStore,
    private readonly states: StreamStateCache,
    /** The single-command path (own transaction, retries on conflict). */
    private readonly alone: (request: AnyRequest<Tx>) => Promise<AnyResult>,
    private readonly options: GroupCommitOptions,
  ) {
    this.batcher = new Batcher((group) => this.write(group), { inFlightMax: options.groupsInFlightMax, take: (queue) => this.take(queue) });
  }

  submit(request: AnyRequest<Tx>): Promise<AnyResult> {
    return new Promise((resolve, reject) => this.batcher.add({ request, context: activeContext(), resolve, reject }));
  }

  /** The next group, in arrival order; a stream's command with another decider than its first waits for a later one. */
  private take(queue: Pending<Tx>[]): Pending<Tx>[] {
    const group: Pending<Tx>[] = [];
    const deciders = new Map<string, unknown>();
    for (let i = 0; i < queue.length && group.length < this.options.groupSizeMax; ) {
      const { streamId, decider } = queue[i].request;
      if (deciders.has(streamId) && deciders.get(streamId) !== decider) {
        i++;
        continue;
      }
      deciders.set(streamId, decider);
      group.push(...queue.splice(i, 1));
    }
    return group;
  }

  private async write(group: Pending<Tx>[]): Promise<void> {
    // pump() may run in whichever command's context finished last: each write runs in its own command's.
    const alone = (p: Pending<Tx>) => inContext(p.context, () => this.alone(p.request)).then(p.resolve, p.reject);
    if (group.length === 1) return alone(group[0]);
    let decided: Decided<Tx>[];
    try {
      decided = await inContext(group[0].context, () => this.db.transaction((tx) => this.writeGroup(tx, group)));
    } catch {
      // Any fold of the group may have been stale (what a refused guard says): each command reads its stream again.
      for (const p of group) this.states.forget(p.request.streamId);
      await Promise.all(group.map(alone));
      return;
    }
    for (const d of decided) {
      if ('refused' in d) d.pending.reject(d.refused);
      else if ('result' in d) d.pending.resolve(d.result);
      else {
        const events = d.appended!;
        const version = d.after + events.length;
        this.states.remember(d.pending.request.streamId, d.pending.request.decider, d.stateAfter, version, events[events.length - 1].eventId);
        d.pending.resolve({ state: d.stateAfter, events, version });
      }
    }
  }

  private async writeGroup(tx: Tx, group: Pending<Tx>[]): Promise<Decided<Tx>[]> {
    const folds = await this.load(tx, group);
    // Each stream's fold before the group's commands: the guard of all its appends in this statement.
    const guards = new Map([...folds].map(([streamId, { version, lastEventId }]) => [streamId, { version, eventId: lastEventId }]));
    const cached = new Set([...folds].filter(([, fold]) => fold.cached).map(([streamId]) => streamId));
    const commands = await this.complete(tx, group);
    const decided: Decided<Tx>[] = group.map((pending, i) => {
      const { streamId, decider } = pending.request;
      const command = commands[i];
      const { state, version } = folds.get(streamId)!;
      const decision = decider.decide(command, state);
      if (decision instanceof DomainError) return { pending, refused: decision };
      if (decision.length === 0) return { pending, result: { state, events: [], version } };
      const stateAfter = decision.reduce((s: unknown, e) => decider.evolve(s, e), state);
      folds.set(streamId, { state: stateAfter, version: version + decision.length });
      return { pending, after: version, events: decision, stateAfter };
    });
    // A refusal or a no-op on a cached fold is only as good as the fold (state-cache.ts), unless an append of the
    // same stream in this group proves the fold by its guard: a stale one sends the group back, each command to the
    // single path, which decides again on its stream read whole.
    const written = new Set(decided.flatMap((d) => ('after' in d ? [d.pending.request.streamId] : [])));
    const doubted = [...new Set(decided.flatMap((d) => (!('after' in d) && cached.has(d.pending.request.streamId) && !written.has(d.pending.request.streamId) ? [d.pending.request.streamId] : [])))];
    await assertFoldsCurrent(tx, this.store, this.states, new Map(doubted.map((streamId) => [streamId, folds.get(streamId)!]))); // no write changed these folds
    const writes = decided.filter((d): d is Extract<Decided<Tx>, { after: number }> => 'after' in d);
    // Read models written in the append's statement: one call per function for the group's commands sharing it.
    const alongsideOf = byShared(writes, (w) => w.pending.request.projectAlongside);
    const appended = await this.store.appendMany(
      tx,
      writes.map((w) => ({ streamId: w.pending.request.streamId, after: w.after, events: w.events, options: { platformId: w.pending.request.platformId, metadata: w.pending.request.metadata }, guard: guards.get(w.pending.request.streamId) })),
      [...alongsideOf].flatMap(([fn, ws]) => fn(ws.map((w) => ({ streamId: w.pending.request.streamId, events: w.events as readonly DomainEvent[], stateAfter: w.stateAfter })))),
    );
    // In arrival order, each with the events and the state after its own command, as on the single path.
    for (const [i, w] of writes.entries()) {
      w.appended = appended[i];
      if (w.pending.request.claim) await w.pending.request.claim(tx);
      await appendNewStreams(tx, this.store, w.pending.request.also, { platformId: w.pending.request.platformId, metadata: w.pending.request.metadata });
      if (w.pending.request.project) await w.pending.request.project(tx, appended[i], w.stateAfter);
    }
    return decided;
  }

  /** The group's commands as `completeAll` completes them: one call per function for the commands sharing it. */
  private async complete(tx: Tx, group: Pending<Tx>[]): Promise<unknown[]> {
    const commands = group.map((p) => p.request.command as unknown);
    for (const [fn, indexes] of byShared(group.keys(), (i) => group[i].request.completeAll)) {
      const completed = await fn(tx, indexes.map((i) => commands[i]));
      indexes.forEach((i, j) => (commands[i] = completed[j]));
    }
    return commands;
  }

  /** Every stream of the group locked and folded (lockAndFold); a new stream has nothing to lock or read. */
  private async load(tx: Tx, group: Pending<Tx>[]): Promise<Map<string, Loaded<unknown>>> {
    const fresh = new Map<string, Loaded<unknown>>();
    const deciders = new Map<string, AnyRequest<Tx>['decider']>();
    for (const { request } of group) {
      if (request.newStream) fresh.set(request.streamId, { state: request.decider.initialState, version: 0 });
      else deciders.set(request.streamId, request.decider);
    }
    const folds = await lockAndFold(tx, this.store, this.states, deciders);
    for (const [streamId, fold] of fresh) if (!folds.has(streamId)) folds.set(streamId, fold);
    return folds;
  }
}

/** `items` by the function each names (in order), for the group's items sharing one to be handled by one call. */
function byShared<T, F>(items: Iterable<T>, fnOf: (item: T) => F | undefined): Map<F, T[]> {
  const byFn = new Map<F, T[]>();
  for (const item of items) {
    const fn = fnOf(item);
    if (fn === undefined) continue;
    const shared = byFn.get(fn);
    if (shared) shared.push(item);
    else byFn.set(fn, [item]);
  }
  return byFn;
}
