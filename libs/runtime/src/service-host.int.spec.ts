import { createEventBus, EventBus } from '@payments/messaging';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { ServiceHost } from './service-host';

/** When the host wakes its relay: the commit of a transaction that appended events, and nothing else. */
describe('ServiceHost relay wake-ups (real PostgreSQL)', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let host: ServiceHost;
  let nudges: jest.SpyInstance;

  beforeAll(async () => {
    database = await createTestDatabase();
    bus = createEventBus({ databaseUrl: database.url, clientId: 'service-host-test' });
    host = await ServiceHost.open({ name: 'wakeprobe', databaseUrl: database.url, bus, topic: 'payments.wakeprobe.events.v1', migrations: [], entities: [], sandboxTimeScale: 1 });
    nudges = jest.spyOn(host.relay, 'nudge');
    await host.start();
  });
  afterAll(async () => {
    await host?.stop();
    await bus?.close();
    await database?.drop();
  });
  beforeEach(() => nudges.mockClear());

  const event = [{ type: 'ProbeOpened.v1', data: {} }];

  it('wakes the relay once a transaction that appended commits, not before', async () => {
    await host.dataSource.transaction(async (tx) => {
      await host.store.append(tx, 'Probe-1', 'no_stream', event);
      expect(nudges).not.toHaveBeenCalled(); // not visible to the relay yet
    });
    expect(nudges).toHaveBeenCalledTimes(1);
  });

  it('does not wake it for transactions without events, nor for one rolled back', async () => {
    await host.dataSource.transaction(async (tx) => {
      await tx.query(`INSERT INTO wakeprobe.checkpoints (name, transaction_id, position) VALUES ('other', '0', 0)`);
    });
    await expect(host.dataSource.transaction(async (tx) => {
      await host.store.append(tx, 'Probe-2', 'no_stream', event);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    expect(nudges).not.toHaveBeenCalled();
  });

  it('waits for the outer commit when the append was in a savepoint, and wakes at once for an append outside any transaction', async () => {
    await host.dataSource.transaction(async (tx) => {
      await tx.transaction(async (inner) => host.store.append(inner, 'Probe-3', 'no_stream', event));
      expect(nudges).not.toHaveBeenCalled();
    });
    expect(nudges).toHaveBeenCalledTimes(1);
    await host.store.append(host.dataSource, 'Probe-4', 'no_stream', event);
    expect(nudges).toHaveBeenCalledTimes(2);
  });
});
