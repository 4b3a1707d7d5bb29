import { EventEnvelope, eventsourcingMigrations, LOG_START, OutboxRelay, PostgresEventStore, runMigrations } from '@payments/eventsourcing';
import { createTestDatabase, eventually, kafkaBrokersForTests, TestDatabase } from '@payments/testing';
import { Pool } from 'pg';
import { pgTransactional } from './embedded/pg-transactional';
import { EffectLedger, uniqueSuffix } from './event-bus.contract-fixtures';
import { EventBus } from './event-bus.port';
import { createEventBus } from './create-event-bus';
import { dataSchema, defineCatalogue, defineEvent } from '@payments/contracts';

/** The relay publishes declared public events only: this test's one event type is one. */
const HAPPENED_PUBLIC = defineCatalogue('payments', [defineEvent({ service: 'payments', name: 'Happened', version: 1, visibility: 'public', data: dataSchema<{ s: number; v: number }>('Happened'), description: 'test event' })]);

/**
 * The relay crashes after the bus accepted a batch but before it stored its checkpoint. After a restart every
 * event reaches the bus at least once (the batch goes out again) and the consumer's effects happen exactly once.
 */
const adapters: [string, string[] | undefined][] = [['PostgreSQL log', undefined]];
const kafka = kafkaBrokersForTests();
if (kafka) adapters.push(['Kafka', kafka]);

describe.each(adapters)('outbox relay crash between publish and checkpoint (%s)', (_name, brokers) => {
  let database: TestDatabase;
  let pool: Pool;
  let bus: EventBus;
  let effects: EffectLedger;
  const store = new PostgresEventStore('svc');

  beforeAll(async () => {
    database = await createTestDatabase('pp_relay');
    pool = new Pool({ connectionString: database.url, max: 6 });
    await runMigrations(pgTransactional(pool), 'svc', [eventsourcingMigrations]);
    effects = await EffectLedger.create(pool);
    bus = createEventBus({ kafkaBrokers: brokers, databaseUrl: database.url, clientId: `relay-${uniqueSuffix()}` });
  });
  afterAll(async () => {
    await bus?.close();
    await pool?.end();
    await database?.drop();
  });

  it('republishes the batch after a restart and the inbox keeps one effect per event', async () => {
    const topic = `relay.crash.${uniqueSuffix()}`;
    await bus.ensureTopics([topic], 3);
    for (let s = 0; s < 5; s++) {
      for (let v = 0; v < 6; v++) await store.append(pool, `Stream:${s}`, v, [{ type: 'Happened.v1', data: { s, v } }], { platformId: 'Platform:p' });
    }
    const { events: written } = await store.readAll(pool, LOG_START, 1000);
    expect(written).toHaveLength(30);

    const deliveries: EventEnvelope[] = [];
    const consumer = `relay-consumer-${uniqueSuffix()}`;
    const subscription = await bus.subscribe({
      group: consumer,
      topics: [topic],
      handler: async (envelope) => {
        deliveries.push(envelope);
        await effects.apply(consumer, envelope);
      },
    });
    try {
      const crashing = new OutboxRelay({
        db: pool,
        schema: 'svc',
        store,
        publisher: bus,
        topic,
        catalogue: HAPPENED_PUBLIC,
        afterPublish: async () => {
          throw new Error('relay process killed');
        },
      });
      await expect(crashing.runOnce()).rejects.toThrow('relay process killed');
      // The first copies arrive, but the checkpoint never moved.
      await eventually(async () => deliveries.length >= 30, { timeoutMs: 30_000, what: 'first delivery of the batch' });
      expect((await pool.query(`SELECT count(*)::int AS n FROM svc.checkpoints`)).rows[0].n).toBe(0);

      const restarted = new OutboxRelay({ db: pool, schema: 'svc', store, publisher: bus, topic, catalogue: HAPPENED_PUBLIC });
      expect(await restarted.runOnce()).toBe(30); // the whole batch again
      expect(await restarted.runOnce()).toBe(0); // and then nothing: the checkpoint is stored

      await eventually(async () => deliveries.length >= 60, { timeoutMs: 30_000, what: 'redelivery of the batch' });
      const delivered = new Set(deliveries.map((d) => d.eventId));
      expect([...delivered].sort()).toEqual(written.map((w) => w.eventId).sort());
      expect(await effects.countsByEvent(consumer)).toEqual(written.map((w) => [w.eventId, 1]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    } finally {
      await subscription.stop();
    }
  });
});
