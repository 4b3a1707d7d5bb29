import { v7 as uuidv7 } from 'uuid';
import { DomainError, DomainEvent } from './decider';
import { EventEnvelope, EventMetadata } from './envelope';
import { cursorOf, LogCursor, readLogAfter } from './log-reader';
import { ident, queryRows, SqlExecutor } from './sql';

/** A committed event as read back from the store: the bus envelope with a typed payload. */
export type RecordedEvent<E extends DomainEvent = DomainEvent> = E extends DomainEvent
  ? Omit<EventEnvelope<E['data']>, 'type'> & { type: E['type'] } // distributes, so a switch on `type` narrows `data`
  : never;

/** `no_stream`: the stream must not exist yet; a number: the version the caller last saw. */
export type ExpectedVersion = number | 'any' | 'no_stream';

export interface AppendOptions {
  platformId?: string | null;
  metadata?: EventMetadata;
}

/** One stream's share of `appendMany`: its events go in as versions after+1, after+2, ... */
export interface StreamAppend {
  streamId: string;
  after: number;
  events: readonly DomainEvent[];
  options?: AppendOptions;
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
  appendMany(db: SqlExecutor, appends: readonly StreamAppend[]): Promise<RecordedEvent[][]>;
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
    const rows: EventRow[] = await queryRows(db, `SELECT * FROM ${this.table} WHERE stream_id = $1 AND stream_version >= $2 ORDER BY stream_version`, [streamId, fromVersion]);
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
    const params: unknown[] = [streamId, after, options.platformId ?? null, JSON.stringify(options.metadata ?? {})];
    const values = events.map((event, i) => {
      params.push(uuidv7(), after + i + 1, event.type, JSON.stringify(event.data));
      const b = 4 + i * 4;
      return `($${b + 1}::uuid, $${b + 2}::int, $${b + 3}::text, $${b + 4}::jsonb)`;
    });
    return queryRows(db,
      `INSERT INTO ${this.table} (event_id, stream_id, stream_version, type, platform_id, data, metadata)
       SELECT v.event_id, $1, v.stream_version, v.type, $3, v.data, $4::jsonb
         FROM (VALUES ${values.join(', ')}) AS v(event_id, stream_version, type, data)
        WHERE $2::int = 0 OR EXISTS (SELECT 1 FROM ${this.table} WHERE stream_id = $1 AND stream_version = $2::int)
       RETURNING *`,
      params,
    );
  }

  async appendMany(db: SqlExecutor, appends: readonly StreamAppend[]): Promise<RecordedEvent[][]> {
    const params: unknown[] = [];
    const ids: string[][] = [];
    const values = appends.flatMap(({ streamId, after, events, options = {} }) => {
      const streamIds: string[] = [];
      ids.push(streamIds);
      return events.map((event, i) => {
        const eventId = uuidv7();
        streamIds.push(eventId);
        params.push(eventId, streamId, after + i + 1, event.type, options.platformId ?? null, JSON.stringify(event.data), JSON.stringify(options.metadata ?? {}));
        const b = params.length - 7;
        return `($${b + 1}::uuid, $${b + 2}, $${b + 3}::int, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, $${b + 7}::jsonb)`;
      });
    });
    if (values.length === 0) return appends.map(() => []);
    const rows: EventRow[] = await queryRows(db,
      `INSERT INTO ${this.table} (event_id, stream_id, stream_version, type, platform_id, data, metadata) VALUES ${values.join(', ')} RETURNING *`,
      params,
    );
    const byId = new Map(rows.map((row) => [row.event_id, toRecorded(row)]));
    return ids.map((streamIds) => streamIds.map((id) => byId.get(id)!));
  }

  async readStreams(db: SqlExecutor, from: readonly { streamId: string; fromVersion: number }[]): Promise<Map<string, RecordedEvent[]>> {
    const rows: EventRow[] = await queryRows(db,
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
    const rows = await queryRows(db, `SELECT coalesce(max(stream_version), 0)::int AS version FROM ${this.table} WHERE stream_id = $1`, [streamId]);
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
