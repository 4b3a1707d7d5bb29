import type { RecordedEvent } from './event-store';
import type { SqlExecutor } from './sql';

/** A folded state and the last event folded into it. */
interface Entry {
  decider: unknown;
  state: unknown;
  version: number;
  lastEventId: string;
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
    decider: { initialState: S; evolve(state: S, event: never): S },
    readFrom: (db: SqlExecutor, streamId: string, fromVersion: number) => Promise<RecordedEvent[]>,
  ): Promise<{ state: S; version: number; lastEventId?: string }> {
    const cached = this.entries.get(streamId);
    if (cached && cached.decider === decider) {
      const tail = await readFrom(db, streamId, cached.version);
      if (tail[0]?.eventId === cached.lastEventId) {
        const rest = tail.slice(1);
        const state = rest.reduce((s, e) => decider.evolve(s, e as never), cached.state as S);
        return { state, version: cached.version + rest.length, lastEventId: rest.length > 0 ? rest[rest.length - 1].eventId : cached.lastEventId };
      }
    }
    const history = await readFrom(db, streamId, 1);
    const state = history.reduce((s, e) => decider.evolve(s, e as never), decider.initialState);
    return { state, version: history.length, lastEventId: history[history.length - 1]?.eventId };
  }

  remember(streamId: string, decider: unknown, state: unknown, version: number, lastEventId: string | undefined): void {
    if (this.entriesMax <= 0 || !lastEventId) return;
    this.entries.delete(streamId); // re-insert: Map order is the recency order
    this.entries.set(streamId, { decider, state, version, lastEventId });
    if (this.entries.size > this.entriesMax) this.entries.delete(this.entries.keys().next().value as string);
  }
}
