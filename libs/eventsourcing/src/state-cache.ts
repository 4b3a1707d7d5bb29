import { type EventStore, type RecordedEvent, WrongExpectedVersionError } from './event-store';
import { queryPrepared, SqlExecutor } from './sql';

/** A folded state and the last event folded into it. */
interface Entry {
  decider: unknown;
  state: unknown;
  version: number;
  lastEventId: string;
}

type FoldWith<S> = { initialState: S; evolve(state: S, event: never): S };
export interface Loaded<S> {
  state: S;
  version: number;
  /** The event at `version` (undefined for an empty stream): the append's guard that this state is still current. */
  lastEventId?: string;
  /** Taken from the cache, not read: current only if an append's guard (or `EventStore.staleOf`) says so. */
  cached?: boolean;
}

/**
 * Folded states of recently written streams, so a command on a hot stream (one account taking many holds) neither
 * re-reads nor re-folds it (issue #30: nothing re-reads what this process just wrote). An entry is trusted without a
 * read because the append checks it: it inserts only if the stream's event at the cached version is the cached one
 * (`lastEventId`) and the next version is free (unique index). A rolled-back append, a commit that failed or another
 * process's write makes that check refuse (WrongExpectedVersionError); the writer then forgets the entry and decides
 * again on the stream read whole. Nothing appended proves a refusal or a no-op current, so a command refused, or
 * decided to change nothing, on a cached fold asks the store whether the fold is stale (`EventStore.staleOf`, one
 * statement, only then) before it is answered; a stale fold is forgotten and the command decided again on the stream
 * read whole (a hold placed or funds credited by another replica must not be refused, and a step cached past a
 * rollback must not be answered "already done"). Least recently used entries are evicted.
 */
export class StreamStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly entriesMax: number) {}

  /** The cached state of `streamId` as folded by `decider`, if any. */
  get<S>(streamId: string, decider: unknown): Loaded<S> | undefined {
    const cached = this.entries.get(streamId);
    if (!cached || cached.decider !== decider) return undefined;
    return { state: cached.state as S, version: cached.version, lastEventId: cached.lastEventId, cached: true };
  }

  remember(streamId: string, decider: unknown, state: unknown, version: number, lastEventId: string | undefined): void {
    if (this.entriesMax <= 0 || !lastEventId) return;
    this.entries.delete(streamId); // re-insert: Map order is the recency order
    this.entries.set(streamId, { decider, state, version, lastEventId });
    if (this.entries.size > this.entriesMax) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** After a refused append: the entry was stale (or may be), the next command reads the stream whole. */
  forget(streamId: string): void {
    this.entries.delete(streamId);
  }
}

/**
 * Refuses with WrongExpectedVersionError when any of these cached folds is stale (`EventStore.staleOf`, one
 * statement; none for no folds), forgetting the stale ones: a decision no append proves (a refusal, a no-op) is
 * answered only on current folds, and the caller's retry decides again on the streams read whole.
 */
export async function assertFoldsCurrent(tx: SqlExecutor, store: Pick<EventStore, 'staleOf'>, states: StreamStateCache, folds: ReadonlyMap<string, Loaded<unknown>>): Promise<void> {
  const stale = await store.staleOf(tx, [...folds].map(([streamId, fold]) => ({ streamId, version: fold.version, eventId: fold.lastEventId })));
  if (stale.size === 0) return;
  for (const streamId of stale) states.forget(streamId);
  const [first] = stale;
  throw new WrongExpectedVersionError([...stale].join(','), folds.get(first)!.version);
}

/** A whole stream folded from its first event. */
export function foldStream<S>(decider: FoldWith<S>, events: readonly RecordedEvent[]): Loaded<S> {
  const state = events.reduce((s, e) => decider.evolve(s, e as never), decider.initialState);
  return { state, version: events.length, lastEventId: events[events.length - 1]?.eventId };
}

/**
 * Several streams locked in one statement, in one order (their lock keys sorted: every writer of several streams
 * takes them so, so two cannot deadlock each other), and folded: from the cache as it is (the append's guard checks
 * it), the others read whole in one statement.
 */
export async function lockAndFold(
  tx: SqlExecutor,
  store: Pick<EventStore, 'readStreams'>,
  states: StreamStateCache,
  deciders: ReadonlyMap<string, FoldWith<unknown>>,
): Promise<Map<string, Loaded<unknown>>> {
  const folds = new Map<string, Loaded<unknown>>();
  const streams = [...deciders.keys()];
  if (streams.length === 0) return folds;
  await queryPrepared(tx, 'SELECT pg_advisory_xact_lock(h) FROM (SELECT hashtextextended(s, 0) AS h FROM unnest($1::text[]) AS s ORDER BY 1) AS sorted', [streams]);
  const misses: string[] = [];
  for (const streamId of streams) {
    const cached = states.get(streamId, deciders.get(streamId));
    if (cached) folds.set(streamId, cached);
    else misses.push(streamId);
  }
  if (misses.length > 0) {
    const whole = await store.readStreams(tx, misses.map((streamId) => ({ streamId, fromVersion: 1 })));
    for (const streamId of misses) folds.set(streamId, foldStream(deciders.get(streamId)!, whole.get(streamId)!));
  }
  return folds;
}
