import { v7 as uuidv7 } from 'uuid';
import { DomainError, DomainEvent } from './decider';
import { EventEnvelope, EventMetadata } from './envelope';
import { cursorOf, LogCursor, readLogAfter } from './log-reader';
import { ident, queryPrepared, SqlExecutor, Statement, withAlongside } from './sql';

/** A committed event as read back from the store: the bus envelope with a typed payload. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? Omit<EventEnvelope<E['data']>, 'type'> & { type: E['type'] } // distributes, so a switch on `type` narrows `data`
  : never;

/** `no_stream`: the stream must not exist yet; a number: the version the caller last saw. */
export type ExpectedVersion = number | 'any' | 'no_stream';

export interface AppendOptions {
  platformId?: string | null;
  metadata?: EventMetadata;
  /**
   * With a numeric expected version: the id of the stream's event at that version, as the writer folded it (a cached
   * state). The insert then also refuses a stream whose event there is another one (a rolled-back append the writer
   * remembered, another process's write), in the same statement.
   */
  expectedLastEventId?: string;
  /** Read-model writes sent in the append's statement (`withAlongside`): they commit with it, in one round trip. */
  alongside?: readonly Statement[];
}

/** One stream's share of `appendMany`: its events go in as versions after+1, after+2, ... */
export interface StreamAppend {
  streamId: string;
  after: number;
  events: readonly DomainEvent[];
  options?: AppendOptions;
  /**
   * The stream as the writer folded it before this statement: its event at `version` is `eventId` (version 0: the
   * stream was empty). Every append of the stream in the statement carries the same guard, so a stale fold inserts
   * none of them and `appendMany` refuses the whole statement.
   */
  guard?: { version: number; eventId?: string };
}

/** Raised when another writer appended to the stream first; the write path retries, then answers 409. */
export class WrongExpectedVersionError extends DomainError {
  /** `actual` is unknown when a concurrent insert won: the transaction is aborted and cannot read it. */
  constructor(streamId: string, expected: ExpectedVersion, actual?: number) {
    const at = actual === undefined ? 'was written by another writer' : `is at version ${actual}`;
    super('CONFLICT', `stream ${streamId} ${at}, expected ${String(expected)}`, { streamId });
  }
}

export interface EventStore {
  /** The stream's events in version order; from `fromVersion` (1-based, inclusive) when given. */
  readStream(db: SqlExecutor, streamId: string, fromVersion?: number): Promise<RecordedEvent[]>;
  append(db: SqlExecutor, streamId: string, expected: ExpectedVersion, events: readonly DomainEvent[], options?: AppendOptions): Promise<RecordedEvent[]>;
  /**
   * Several streams' appends in one statement, for a writer that holds their locks and read their versions in this
   * transaction (group commit). A version taken meanwhile fails the whole statement (unique violation).
   */
  appendMany(db: SqlExecutor, appends: readonly StreamAppend[], alongside?: readonly Statement[]): Promise<RecordedEvent[][]>;
  /**
   * Which of these folds are stale: the stream's event at `version` is not `eventId`, or there are events after it.
   * Read under the streams' locks, it proves a decision made on a cached fold current when no append does (a refusal).
   */
  staleOf(db: SqlExecutor, folds: readonly { streamId: string; version: number; eventId?: string }[]): Promise<Set<string>>;
  /** The events of several streams, each from its own version on (1 = whole), by stream id. */
  readStreams(db: SqlExecutor, from: readonly { streamId: string; fromVersion: number }[]): Promise<Map<string, RecordedEvent[]>>;
  /**
   * The global log after a cursor, committed events only, in cursor order (see log-reader.ts); with `checkpoint`,
   * after the later of `after` and that stored checkpoint (read in the same statement).
   */
  readAll(db: SqlExecutor, after: LogCursor, limit: number, checkpoint?: string): Promise<LogBatch>;
}

/** Events read from the global log and the cursor past the last of them (`after` itself when there were none). */
export interface LogBatch {
  events: RecordedEvent[];
  next: LogCursor;
}

interface EventRow {
  global_position: string;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  platform_id: string | null;
  data: unknown;
  metadata: EventMetadata;
  created_at: Date;
}

const UNIQUE_VIOLATION = '23505';

/** The event store of DESIGN §4 on PostgreSQL; `events` of the service schema is also its outbox. */
export class PostgresEventStore implements EventStore {
  private readonly table: string;

  constructor(readonly schema: string) {
    this.table = `${ident(schema)}.events`;
  }

  async readStream(db: SqlExecutor, streamId: string, fromVersion = 1): Promise<RecordedEvent[]> {
    const rows: EventRow[] = await queryPrepared(db, `SELECT * FROM ${this.table} WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`, [streamId, fromVersion]);
    return rows.map(toRecorded);
  }

  async append(
    db: SqlExecutor,
    streamId: string,
    expected: ExpectedVersion,
    events: readonly DomainEvent[],
    options: AppendOptions = {},
  ): Promise<RecordedEvent[]> {
    if (events.length === 0) return [];
    // A known expected version needs no read first: the insert itself checks it (see `insertAfter`).
    const after = typeof expected === 'number' ? expected : expected === 'no_stream' ? 0 : await this.currentVersion(db, streamId);
    let rows: EventRow[];
    try {
      rows = await this.insertAfter(db, streamId, after, events, options);
    } catch (error) {
      // The stream is past `after`: a concurrent writer took one of our versions first.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new WrongExpectedVersionError(streamId, expected);
      throw error;
    }
    if (rows.length === 0) throw new WrongExpectedVersionError(streamId, expected, await this.currentVersion(db, streamId));
    return rows.map(toRecorded);
  }

  /**
   * Inserts `events` as versions after+1.. in one statement. The unique (stream_id, stream_version) refuses a stream
   * that is already past `after`; the EXISTS guard refuses one that is not yet at `after` (no gap is ever written),
   * and then nothing is inserted.
   */
  private insertAfter(db: SqlExecutor, streamId: string, after: number, events: readonly DomainEvent[], options: AppendOptions): Promise<EventRow[]> {
    // Constant text whatever the number of events (arrays, not a VALUES list): prepared once per connection.
    const insert = {
      sql: `INSERT INTO ${this.table} (event_id, stream_id, stream_version, type, platform_id, data, metadata)
       SELECT v.event_id, $1, $2::int + v.ord::int, v.type, $3, v.data::jsonb, $4::jsonb
         FROM unnest($6::uuid[], $7::text[], $8::text[]) WITH ORDINALITY AS v(event_id, type, data, ord)
        WHERE $2::int = 0 OR EXISTS (SELECT 1 FROM ${this.table} WHERE stream_id = $1 AND stream_version = $2::int AND ($5::uuid IS NULL OR event_id = $5::uuid))
        ORDER BY v.ord
       RETURNING *`,
      params: [
        streamId,
        after,
        options.platformId ?? null,
        JSON.stringify(options.metadata ?? {}),
        options.expectedLastEventId ?? null,
        events.map(() => uuidv7()),
        events.map((event) => event.type),
        events.map((event) => JSON.stringify(event.data)),
      ],
    };
    const statement = withAlongside(insert, options.alongside ?? [], events.length);
    return queryPrepared(db, statement.sql, statement.params);
  }

  /**
   * `alongside`: read-model writes in the same statement (`withAlongside`). When a guard refuses, they have run too
   * and this throws: the caller's transaction must roll back, as it does on any error.
   */
  async appendMany(db: SqlExecutor, appends: readonly StreamAppend[], alongside: readonly Statement[] = []): Promise<RecordedEvent[][]> {
    const ids: string[][] = [];
    const columns = { eventId: [] as string[], streamId: [] as string[], version: [] as number[], type: [] as string[], platformId: [] as (string | null)[], data: [] as string[], metadata: [] as string[], guardVersion: [] as (number | null)[], guardEvent: [] as (string | null)[] };
    for (const { streamId, after, events, options = {}, guard } of appends) {
      const streamIds: string[] = [];
      ids.push(streamIds);
      const metadata = JSON.stringify(options.metadata ?? {});
      events.forEach((event, i) => {
        const eventId = uuidv7();
        streamIds.push(eventId);
        columns.eventId.push(eventId);
        columns.streamId.push(streamId);
        columns.version.push(after + i + 1);
        columns.type.push(event.type);
        columns.platformId.push(options.platformId ?? null);
        columns.data.push(JSON.stringify(event.data));
        columns.metadata.push(metadata);
        columns.guardVersion.push(guard?.version ?? null);
        columns.guardEvent.push(guard?.eventId ?? null);
      });
    }
    const count = columns.eventId.length;
    if (count === 0) {
      if (alongside.length > 0) throw new Error('read-model writes alongside an append need events to append');
      return appends.map(() => []);
    }
    // Constant text whatever the group holds (arrays, not a VALUES list): prepared once per connection.
    const statement = withAlongside({
      sql: `INSERT INTO ${this.table} (event_id, stream_id, stream_version, type, platform_id, data, metadata)
       SELECT v.event_id, v.stream_id, v.stream_version, v.type, v.platform_id, v.data::jsonb, v.metadata::jsonb
         FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::uuid[])
                WITH ORDINALITY AS v(event_id, stream_id, stream_version, type, platform_id, data, metadata, guard_version, guard_event, ord)
        WHERE v.guard_version IS NULL OR v.guard_version = 0
           OR EXISTS (SELECT 1 FROM ${this.table} e WHERE e.stream_id = v.stream_id AND e.stream_version = v.guard_version AND (v.guard_event IS NULL OR e.event_id = v.guard_event))
        ORDER BY v.ord
       RETURNING *`,
      params: [columns.eventId, columns.streamId, columns.version, columns.type, columns.platformId, columns.data, columns.metadata, columns.guardVersion, columns.guardEvent],
    }, alongside, count);
    const rows: EventRow[] = await queryPrepared(db, statement.sql, statement.params);
    if (rows.length < count) {
      // A guarded stream was not as its writer folded it: none of its events went in, so none of the statement's may.
      const inserted = new Set(rows.map((row) => row.event_id));
      const stale = appends.find((_, i) => ids[i].some((id) => !inserted.has(id)))!;
      throw new WrongExpectedVersionError(stale.streamId, stale.after);
    }
    const byId = new Map(rows.map((row) => [row.event_id, toRecorded(row)]));
    return ids.map((streamIds) => streamIds.map((id) => byId.get(id)!));
  }

  async staleOf(db: SqlExecutor, folds: readonly { streamId: string; version: number; eventId?: string }[]): Promise<Set<string>> {
    if (folds.length === 0) return new Set();
    const rows: { stream_id: string }[] = await queryPrepared(db,
      `SELECT f.stream_id FROM unnest($1::text[], $2::int[], $3::uuid[]) AS f(stream_id, version, event_id)
        WHERE EXISTS (SELECT 1 FROM ${this.table} e WHERE e.stream_id = f.stream_id AND e.stream_version = f.version + 1)
           OR (f.version > 0 AND NOT EXISTS (SELECT 1 FROM ${this.table} e WHERE e.stream_id = f.stream_id AND e.stream_version = f.version AND e.event_id = f.event_id))`,
      [folds.map((f) => f.streamId), folds.map((f) => f.version), folds.map((f) => f.eventId ?? null)],
    );
    return new Set(rows.map((r) => r.stream_id));
  }

  async readStreams(db: SqlExecutor, from: readonly { streamId: string; fromVersion: number }[]): Promise<Map<string, RecordedEvent[]>> {
    const rows: EventRow[] = await queryPrepared(db,
      `SELECT e.* FROM unnest($1::text[], $2::int[]) AS s(stream_id, from_version)
         JOIN ${this.table} e ON e.stream_id = s.stream_id AND e.stream_version >= s.from_version
        ORDER BY e.stream_id, e.stream_version`,
      [from.map((f) => f.streamId), from.map((f) => f.fromVersion)],
    );
    const streams = new Map<string, RecordedEvent[]>(from.map((f) => [f.streamId, []]));
    for (const row of rows) streams.get(row.stream_id)!.push(toRecorded(row));
    return streams;
  }

  async readAll(db: SqlExecutor, after: LogCursor, limit: number, checkpoint?: string): Promise<LogBatch> {
    const rows = await readLogAfter<EventRow>(db, { schema: this.schema, table: 'events', positionColumn: 'global_position' }, after, limit, { checkpoint });
    return { events: rows.map(toRecorded), next: rows.length > 0 ? cursorOf(rows[rows.length - 1], 'global_position') : after };
  }

  private async currentVersion(db: SqlExecutor, streamId: string): Promise<number> {
    const rows = await queryPrepared(db, `SELECT coalesce(max(stream_version), 0)::int AS version FROM ${this.table} WHERE stream_id = $1`, [streamId]);
    return rows[0].version;
  }
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    type: row.type,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    globalPosition: String(row.global_position),
    occurredAt: new Date(row.created_at).toISOString(),
    platformId: row.platform_id,
    data: row.data,
    metadata: row.metadata ?? {},
  };
}
