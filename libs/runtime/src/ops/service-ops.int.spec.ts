import { createEventBus, EventBus } from '@payments/messaging';
import { createTestDatabase, http, TestDatabase } from '@payments/testing';
import { ServiceHost } from '../service-host';
import { OpsServer } from './ops-server';
import { startServiceOps } from './service-ops';

/** An event-sourced service's ops server: database and bus checks, store, relay and timer metrics read on scrape. */
describe('service ops (real PostgreSQL, PostgreSQL-log bus)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let host: ServiceHost;
  let ops: OpsServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'service-ops-test' });
    host = await ServiceHost.open({
      name: 'opsprobe',
      databaseUrl: database.url,
      bus,
      topic: 'payments.opsprobe.events.v1',
      migrations: [],
      entities: [],
      sandboxTimeScale: 1,
    });
    ops = await startServiceOps({ app: 'opsprobe', service: host, bus, host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await ops?.stop();
    await host?.stop(); // never started: only closes its database
    await bus?.close();
    await database?.drop();
  });

  const scrape = async () => (await http<string>('GET', `http://127.0.0.1:${ops.port}/metrics`)).body;
  const sample = (text: string, series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1]);

  it('is ready when its database and bus answer', async () => {
    const ready = await http('GET', `http://127.0.0.1:${ops.port}/readyz`);
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', bus: 'ok' } } });
  });

  it('counts appended events by type, reports relay lag and due timers, and lag drops once the relay runs', async () => {
    const db = host.dataSource;
    await host.store.append(db, 'Probe-1', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }, { type: 'ProbeMoved.v1', data: {} }]);
    await host.store.append(db, 'Probe-2', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }]);
    await host.timers.schedule(db, { name: 'probe.expire', delayMs: 0 });

    const before = await scrape();
    expect(sample(before, 'events_appended_total{service="opsprobe",type="ProbeOpened.v1",app="opsprobe"}')).toBe(2);
    expect(sample(before, 'events_appended_total{service="opsprobe",type="ProbeMoved.v1",app="opsprobe"}')).toBe(1);
    expect(sample(before, 'outbox_relay_lag_events{service="opsprobe",app="opsprobe"}')).toBe(3);
    expect(sample(before, 'timers_due{service="opsprobe",app="opsprobe"}')).toBe(1);

    await host.relay.runOnce();
    await host.store.append(db, 'Probe-1', 2, [{ type: 'ProbeMoved.v1', data: {} }]);
    const after = await scrape();
    // The counter only adds what is new since the last scrape.
    expect(sample(after, 'events_appended_total{service="opsprobe",type="ProbeOpened.v1",app="opsprobe"}')).toBe(2);
    expect(sample(after, 'events_appended_total{service="opsprobe",type="ProbeMoved.v1",app="opsprobe"}')).toBe(2);
    expect(sample(after, 'outbox_relay_lag_events{service="opsprobe",app="opsprobe"}')).toBe(1);
  });

  it('does not double count when scrapes overlap', async () => {
    await host.store.append(host.dataSource, 'Probe-3', 'no_stream', [{ type: 'ProbeOpened.v1', data: {} }]);
    const [first, second] = await Promise.all([ops.registry.metrics(), ops.registry.metrics()]); // both collect at once
    const series = 'events_appended_total{service="opsprobe",type="ProbeOpened.v1",app="opsprobe"}';
    expect([sample(first, series), sample(second, series)]).toEqual([3, 3]);
  });
});
