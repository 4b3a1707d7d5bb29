import { randomBytes, randomUUID } from 'node:crypto';
import { EventEnvelope, eventsourcingMigrations, MigrationSet, recordInInbox, runMigrations } from '@payments/eventsourcing';
import type { Pool } from 'pg';
import { inTransaction, pgTransactional } from './embedded/pg-transactional';

/** Test-only helpers of the bus contract suite: envelopes, unique names, and a consumer with inbox-guarded effects. */
export const uniqueSuffix = (): string => `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;

let globalPosition = 0;
export function envelopeOf(streamId: string, streamVersion: number): EventEnvelope {
  return {
    eventId: randomUUID(),
    type: 'BusContractExercised.v1',
    streamId,
    streamVersion,
    globalPosition: String(++globalPosition),
    occurredAt: new Date().toISOString(),
    platformId: 'Platform:contract',
    data: { streamVersion },
    metadata: { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` },
  };
}

/** `count` events spread round-robin over `streams` streams, versions counting up per stream. */
export function interleaved(streams: readonly string[], count: number): EventEnvelope[] {
  return Array.from({ length: count }, (_, i) => envelopeOf(streams[i % streams.length], Math.floor(i / streams.length) + 1));
}

export function chunked<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
}

const EFFECTS_SCHEMA = 'bus_contract';

/** No unique constraint on purpose: only the inbox may stop a redelivery from adding a second effect row. */
const effectsMigrations: MigrationSet = {
  module: 'bus_contract',
  migrations: [
    {
      version: 1,
      name: 'effects',
      sql: `CREATE TABLE {{schema}}.effects (
              id bigserial PRIMARY KEY, consumer text NOT NULL, event_id text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
    },
  ],
};

/** A consumer's side effects, made exactly-once by recording the event in the inbox in the same transaction. */
export class EffectLedger {
  constructor(private readonly pool: Pool) {}

  static async create(pool: Pool): Promise<EffectLedger> {
    await runMigrations(pgTransactional(pool), EFFECTS_SCHEMA, [eventsourcingMigrations, effectsMigrations]);
    return new EffectLedger(pool);
  }

  /** Returns whether the effect was applied (false: a duplicate the inbox recognised). */
  apply(consumer: string, envelope: EventEnvelope): Promise<boolean> {
    return inTransaction(this.pool, async (tx) => {
      if (!(await recordInInbox(tx, EFFECTS_SCHEMA, consumer, envelope.eventId))) return false;
      await tx.query(`INSERT INTO ${EFFECTS_SCHEMA}.effects (consumer, event_id) VALUES ($1, $2)`, [consumer, envelope.eventId]);
      return true;
    });
  }

  async count(consumer: string): Promise<number> {
    const { rows } = await this.pool.query(`SELECT count(*)::int AS n FROM ${EFFECTS_SCHEMA}.effects WHERE consumer = $1`, [consumer]);
    return rows[0].n as number;
  }

  /** eventId -> number of effect rows, sorted by eventId so two of them compare with toEqual. */
  async countsByEvent(consumer: string): Promise<Array<[string, number]>> {
    const { rows } = await this.pool.query(
      `SELECT event_id, count(*)::int AS n FROM ${EFFECTS_SCHEMA}.effects WHERE consumer = $1 GROUP BY event_id`,
      [consumer],
    );
    return byEventId(rows.map((r: { event_id: string; n: number }): [string, number] => [r.event_id, r.n]));
  }
}

export const exactlyOnceEach = (envelopes: readonly EventEnvelope[]): Array<[string, number]> =>
  byEventId(envelopes.map((e): [string, number] => [e.eventId, 1]));

// Sorted in JS on both sides: the database collation need not order text the way JavaScript does.
const byEventId = (pairs: Array<[string, number]>): Array<[string, number]> =>
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
