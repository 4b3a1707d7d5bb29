import type { RecordedEvent } from './event-store';
import type { SqlExecutor } from './sql';

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
  lastEventId?: string;
}

/**
 * Folded states of recently written streams, so a hot stream (one account taking many holds) is not re-read and
 * re-folded from its first event on every command. It is only a hint: each use re-reads the stream from the cached
 * version and requires the event stored there to be the one cached, so a rolled-back append or a write by another
 * process shows as a mismatch and the stream is read whole. Least recently used entries are evicted.
 */
export class StreamStateCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly entriesMax: number) {}

  /** The state and version of `streamId` after every stored event, using a cached prefix when it is still valid. */
  async load<S>(
    db: SqlExecutor,
    streamId: string,
    decider: FoldWith<S>,
    readFrom: (db: SqlExecutor, streamId: string, fromVersion: number) => Promise<RecordedEvent[]>,
  ): Promise<Loaded<S>> {
    const from = this.readFrom(streamId, decider);
    return this.fold(streamId, decider, from, await readFrom(db, streamId, from)) ?? this.fold(streamId, decider, 1, await readFrom(db, streamId, 1))!;
  }

  /** The version to read `streamId` from: the cached one (re-read to check it), or 1. */
  readFrom(streamId: string, decider: unknown): number {
    const cached = this.entries.get(streamId);
    return cached && cached.decider === decider ? cached.version : 1;
  }

  /** The state after `events` read from version `from`; undefined when they do not continue the cached prefix. */
  fold<S>(streamId: string, decider: FoldWith<S>, from: number, events: readonly RecordedEvent[]): Loaded<S> | undefined {
    if (from === 1) {
      const state = events.reduce((s, e) => decider.evolve(s, e as never), decider.initialState);
      return { state, version: events.length, lastEventId: events[events.length - 1]?.eventId };
    }
    const cached = this.entries.get(streamId);
    if (!cached || cached.decider !== decider || cached.version !== from || events[0]?.eventId !== cached.lastEventId) return undefined;
    const rest = events.slice(1);
    const state = rest.reduce((s, e) => decider.evolve(s, e as never), cached.state as S);
    return { state, version: cached.version + rest.length, lastEventId: rest.length > 0 ? rest[rest.length - 1].eventId : cached.lastEventId };
  }

  remember(streamId: string, decider: unknown, state: unknown, version: number, lastEventId: string | undefined): void {
    if (this.entriesMax <= 0 || !lastEventId) return;
    this.entries.delete(streamId); // re-insert: Map order is the recency order
    this.entries.set(streamId, { decider, state, version, lastEventId });
    if (this.entries.size > this.entriesMax) this.entries.delete(this.entries.keys().next().value as string);
  }
}
