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

/** Raised when another writer appended to the stream first; the write path retries, then answers 409. */
export class WrongExpectedVersionError extends DomainError {
  constructor(streamId: string, expected: ExpectedVersion, actual: number) {
    super('CONFLICT', `stream ${streamId} is at version ${actual}, expected ${String(expected)}`, { streamId });
  }
}

export interface EventStore {
  /** The stream's events in version order; from `fromVersion` (1-based, inclusive) when given. */
  readStream(db: SqlExecutor, streamId: string, fromVersion?: number): Promise<RecordedEvent[]>;
  append(db: SqlExecutor, streamId: string, expected: ExpectedVersion, events: readonly DomainEvent[], options?: AppendOptions): Promise<RecordedEvent[]>;
  /** The global log after a cursor, committed events only, in cursor order (see log-reader.ts). */
  readAll(db: SqlExecutor, after: LogCursor, limit: number): Promise<LogBatch>;
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

  /** The NOTIFY channel raised on every append, so relays wake without polling. */
  get channel(): string {
    return `${this.schema}_events`;
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
    const current = await this.currentVersion(db, streamId);
    if ((expected === 'no_stream' && current !== 0) || (typeof expected === 'number' && expected !== current)) {
      throw new WrongExpectedVersionError(streamId, expected, current);
    }
    const params: unknown[] = [];
    const values = events.map((event, i) => {
      params.push(uuidv7(), streamId, current + i + 1, event.type, options.platformId ?? null, JSON.stringify(event.data), JSON.stringify(options.metadata ?? {}));
      const b = i * 7;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::jsonb, $${b + 7}::jsonb)`;
    });
    try {
      const rows: EventRow[] = await queryRows(db, 
        `INSERT INTO ${this.table} (event_id, stream_id, stream_version, type, platform_id, data, metadata)
         VALUES ${values.join(', ')} RETURNING *`,
        params,
      );
      await queryRows(db, `SELECT pg_notify($1, '')`, [this.channel]);
      return rows.map(toRecorded);
    } catch (error) {
      // A concurrent writer took one of our versions between our read and our insert.
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new WrongExpectedVersionError(streamId, expected, current);
      throw error;
    }
  }

  async readAll(db: SqlExecutor, after: LogCursor, limit: number): Promise<LogBatch> {
    const rows = await readLogAfter<EventRow>(db, { schema: this.schema, table: 'events', positionColumn: 'global_position' }, after, limit);
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
