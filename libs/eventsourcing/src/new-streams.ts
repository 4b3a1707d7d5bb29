import type { DomainEvent } from './decider';
import type { EventMetadata } from './envelope';
import type { EventStore } from './event-store';
import type { SqlExecutor } from './sql';

/** A stream written whole in one append (expected version 0). */
export interface NewStream {
  streamId: string;
  events: readonly DomainEvent[];
}

/** Appends `streams` as new streams in `tx` (the `also` of a command; a service's own transaction may call it too). */
export async function appendNewStreams(tx: SqlExecutor, store: EventStore, streams: readonly NewStream[] | undefined, options: { platformId?: string | null; metadata?: EventMetadata }): Promise<void> {
  for (const stream of streams ?? []) await store.append(tx, stream.streamId, 0, stream.events, options);
}
