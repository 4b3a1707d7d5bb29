import { Client } from 'pg';
import { createEventBus, EventBus, SubscriptionHandle } from '@payments/messaging';
import { createTestDatabase, eventually, http, sampleOf, TestDatabase } from '@payments/testing';
import { ServiceHost } from '../service-host';
import { OpsServer } from './ops-server';
import { startServiceOps } from './service-ops';

/**
 * An event-sourced service's ops server as an SRE sees it: each metric moves when what it measures does. The host is
 * opened but not started, so its relay and timer poller are held back until a test runs them by hand.
 */
describe('service ops (real PostgreSQL, PostgreSQL-log bus)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let host: ServiceHost;
  let ops: OpsServer;
  const subscriptions: SubscriptionHandle[] = [];
  const poolMax = process.env.DB_POOL_SIZE_MAX;

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'service-ops-test' });
    process.env.DB_POOL_SIZE_MAX = '3'; // a pool small enough to saturate
    host = await ServiceHost.open({ name: 'opsprobe', databaseUrl: database.url, bus, topic: 'payments.opsprobe.events.v1', migrations: [], entities: [], sandboxTimeScale: 1 });
    ops = await startServiceOps({ app: 'opsprobe', service: host, bus, host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    if (poolMax === undefined) delete process.env.DB_POOL_SIZE_MAX;
    else process.env.DB_POOL_SIZE_MAX = poolMax;
    for (const s of subscriptions) await s.stop();
    await ops?.stop();
    await host?.stop(); // never started: only closes its database
    await bus?.close();
    await database?.drop();
  });

  const scrape = async () => (await http<string>('GET', `http://127.0.0.1:${ops.port}/metrics`)).body;
  const metric = async (name: string, labels: Record<string, string> = {}) => sampleOf(await scrape(), name, { app: 'opsprobe', ...labels });
  const service = { service: 'opsprobe' };

  it('is ready when its database and bus answer', async () => {
    const ready = await http('GET', `http://127.0.0.1:${ops.port}/readyz`);
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', bus: 'ok' } } });
  });

  // The counter and the relay read only rows of transactions older than every running one (the log reader's xmin
  // rule), so a transaction open anywhere on the test server delays them: those expectations wait with `eventually`.
  const appended = async (type: string) => metric('payments_events_appended_total', { ...service, type });
  const relayCaughtUp = () => eventually(async () => (await host.relay.runOnce(), (await metric('payments_outbox_relay_lag_events', service)) === 0), { what: 'the relay to catch up' });

  it('relay lag: events behind and the age of the oldest grow while the relay is held back, and fall to 0 once it runs', async () => {
    const db = host.dataSource;
    await host.store.append(db, 'Probe-1', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }, { type: 'ProbeMoved.v1', data: {} }]);
    await host.store.append(db, 'Probe-2', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }]);

    expect(await metric('payments_outbox_relay_lag_events', service)).toBe(3);
    await eventually(async () => ((await metric('payments_outbox_relay_lag_seconds', service)) ?? 0) >= 0.5, { what: 'the relay lag age to pass 0.5 s' });
    await eventually(async () => (await appended('ProbeOpened.v1')) === 2 && (await appended('ProbeMoved.v1')) === 1, { what: 'appended events counted' });

    await relayCaughtUp();
    expect(await metric('payments_outbox_relay_lag_seconds', service)).toBe(0);
    await host.store.append(db, 'Probe-1', 2, [{ type: 'ProbeMoved.v1', data: {} }]);
    expect(await metric('payments_outbox_relay_lag_events', service)).toBe(1);
    // The counter only adds what is new since the last scrape.
    await eventually(async () => (await appended('ProbeMoved.v1')) === 2, { what: 'the new event counted' });
    expect(await appended('ProbeOpened.v1')).toBe(2);
    await relayCaughtUp();
    expect(await metric('payments_outbox_relay_lag_seconds', service)).toBe(0);
  });

  it('does not double count appended events when scrapes overlap', async () => {
    await host.store.append(host.dataSource, 'Probe-3', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }]);
    const series = { ...service, type: 'ProbeOpened.v1' };
    for (let round = 0; round < 20; round++) {
      const [first, second] = await Promise.all([ops.registry.metrics(), ops.registry.metrics()]); // both collect at once
      const counts = [sampleOf(first, 'payments_events_appended_total', series), sampleOf(second, 'payments_events_appended_total', series)];
      expect(counts[0]).toBe(counts[1]);
      expect(counts[0]).toBeLessThanOrEqual(3);
      if (counts[0] === 3) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the third ProbeOpened.v1 was never counted');
  });

  it('timer backlog: a due timer that has not fired raises the count and its age grows, until the poller fires it', async () => {
    expect(await metric('payments_timers_due', service)).toBe(0);
    await host.timers.schedule(host.dataSource, { name: 'probe.expire', delayMs: 0 });
    expect(await metric('payments_timers_due', service)).toBe(1);
    await eventually(async () => ((await metric('payments_timers_oldest_due_age_seconds', service)) ?? 0) >= 0.5, { what: 'the due age to pass 0.5 s' });

    expect(await host.timers.fireDue({ 'probe.expire': async () => undefined })).toBe(1);
    const text = await scrape();
    expect(sampleOf(text, 'payments_timers_due', service)).toBe(0);
    expect(sampleOf(text, 'payments_timers_oldest_due_age_seconds', service)).toBe(0);
  });

  it("consumer lag of the app's own groups while a handler is stuck, then none; a poison message shows as a dead letter", async () => {
    const topic = 'payments.lagsource.events.v1';
    await bus.ensureTopics([topic]);
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    subscriptions.push(
      await bus.subscribe({
        group: 'opsprobe.lagsource-events',
        topics: [topic],
        maxAttempts: 1,
        handler: async (e) => {
          await stuck;
          if (e.type === 'Poison.v1') throw new Error('cannot handle this one');
        },
      }),
      // Another app's group on the same bus: not this app's to report.
      await bus.subscribe({ group: 'someone-else.lagsource-events', topics: [topic], handler: async () => undefined }),
    );
    const group = { group: 'opsprobe.lagsource-events', topic };
    const envelope = (type: string, version: number) => ({
      eventId: `00000000-0000-7000-8000-00000000000${version}`,
      type,
      streamId: 'Source-1',
      streamVersion: version,
      globalPosition: String(version),
      occurredAt: new Date().toISOString(),
      platformId: null,
      data: {},
      metadata: {},
    });
    await bus.publish(topic, [envelope('Poison.v1', 1), envelope('SourceMoved.v1', 2)]);

    await eventually(async () => (await metric('payments_bus_consumer_lag_events', group)) === 2, { what: '2 events behind' });
    await eventually(async () => ((await metric('payments_bus_consumer_lag_seconds', group)) ?? 0) >= 0.5, { what: 'the consumer lag age to pass 0.5 s' });
    expect(await scrape()).not.toContain('someone-else');

    release();
    await eventually(async () => (await metric('payments_bus_consumer_lag_events', group)) === 0, { what: 'the group to catch up' });
    const text = await scrape();
    expect(sampleOf(text, 'payments_bus_consumer_lag_seconds', { app: 'opsprobe', ...group })).toBe(0);
    expect(sampleOf(text, 'payments_bus_dlq_messages', { app: 'opsprobe', topic })).toBe(1);
  });

  it('pool saturation: queries waiting for a connection while every connection is busy', async () => {
    expect(await metric('payments_db_pool_max_connections', { pool: 'opsprobe' })).toBe(3);
    const busy = Array.from({ length: 5 }, () => host.dataSource.query('SELECT pg_sleep(1.5)'));
    try {
      const text = await eventually(async () => {
        const t = await scrape();
        return (sampleOf(t, 'payments_db_pool_waiting_clients', { pool: 'opsprobe' }) ?? 0) >= 2 && t;
      }, { what: 'queries waiting for the pool' });
      expect(sampleOf(text, 'payments_db_pool_connections', { pool: 'opsprobe' })).toBe(3);
      expect(sampleOf(text, 'payments_db_pool_idle_connections', { pool: 'opsprobe' })).toBe(0);
    } finally {
      await Promise.all(busy);
    }
    await eventually(async () => (await metric('payments_db_pool_waiting_clients', { pool: 'opsprobe' })) === 0, { what: 'nothing waiting once the queries ended' });
  });

  it('answers a scrape within its bound while a reading query is blocked, keeping the last values', async () => {
    const before = await metric('payments_outbox_relay_lag_events', service);
    const locker = new Client({ connectionString: database.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE opsprobe.checkpoints IN ACCESS EXCLUSIVE MODE'); // the relay backlog read waits on it
      const started = Date.now();
      const text = await scrape();
      expect(Date.now() - started).toBeLessThan(2_500);
      expect(sampleOf(text, 'payments_outbox_relay_lag_events', { app: 'opsprobe', ...service })).toBe(before);
      expect(sampleOf(text, 'payments_db_pool_max_connections', { app: 'opsprobe', pool: 'opsprobe' })).toBe(3);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
  });
});
