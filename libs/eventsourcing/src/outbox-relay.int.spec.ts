import { EventEnvelope as BusEnvelope, IDENTITY_EVENTS, PAYMENTS_EVENTS } from '@payments/contracts';
import { eventually } from '@payments/testing';
import { EventEnvelope, EventPublisher } from './envelope';
import { PostgresEventStore } from './event-store';
import { loadCheckpoint } from './checkpoints';
import { LOG_START } from './log-reader';
import { OutboxRelay } from './outbox-relay';
import { reconcileRelay } from './relay-reconcile';
import { openTestServiceDb, TestServiceDb } from './test-service-db';

/** Records what reaches the topic. */
class RecordingPublisher implements EventPublisher {
  readonly published: EventEnvelope[] = [];
  async publish(_topic: string, envelopes: readonly EventEnvelope[]): Promise<void> {
    this.published.push(...envelopes);
  }
}

const terms = {
  transactionId: 'Transaction:1',
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  type: 'OUTGOING',
  direction: 'OUTGOING',
  customerId: null,
  source: { accountId: 'InternalAccount:1' },
  destination: { accountId: 'ExternalAccount:1' },
  sentAmount: { amount: 1000, currency: 'USD' },
  receivedAmount: { amount: 1000, currency: 'USD' },
  fees: 0,
  platformFees: 0,
  exchangeRate: 1,
  quoteId: null,
  description: null,
  paymentRail: 'ACH',
  railSelectionMode: null,
  settlementTimelineSeconds: null,
  expectedSettlementAt: null,
  rateDetails: null,
  reference: 'REF-1',
  plan: { hold: { accountId: 'InternalAccount:1', amount: 1000 }, legs: ['secret saga plan'] },
  rail: { script: 'sandbox payout', steps: ['SUBMIT', 'SETTLE'] },
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'PENDING',
  failureReason: null,
};

describe('OutboxRelay publishes only public events (real PostgreSQL)', () => {
  let db: TestServiceDb;
  const store = new PostgresEventStore('svc');

  beforeAll(async () => {
    db = await openTestServiceDb('svc');
  });
  afterAll(() => db.close());

  it('publishes public events in their public form, never internal or undeclared ones, and moves its checkpoint past all', async () => {
    const ds = db.dataSource;
    await store.append(ds, 'Transaction:1', 'no_stream', [
      { type: 'TransactionCreated.v1', data: terms },
      { type: 'TransactionStatusChanged.v1', data: { transaction: { id: 'Transaction:1', status: 'PENDING' }, previousStatus: null, mode: 'SANDBOX' } },
      { type: 'TransactionFundsHeld.v1', data: { transactionId: 'Transaction:1', at: '2026-01-01T00:00:01.000Z' } }, // internal
      { type: 'SomethingNobodyDeclared.v1', data: { leaked: true } }, // undeclared: not published either
      { type: 'TransactionCompleted.v1', data: { transactionId: 'Transaction:1', settledAt: '2026-01-01T00:00:02.000Z' } },
    ]);
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay({ db: ds, schema: 'svc', store, publisher, topic: 'payments.payments.events.v1', catalogue: PAYMENTS_EVENTS });

    // The log shows a commit once every older transaction of the server has ended (log-reader.ts): poll for it.
    let moved = 0;
    await eventually(async () => (moved += await relay.runOnce()) >= 5, { timeoutMs: 30_000, what: 'the relay moving past the five events' });
    expect(moved).toBe(5); // past all five, published or not
    expect(await relay.runOnce()).toBe(0);
    expect(publisher.published.map((e) => e.type)).toEqual(['TransactionCreated.v1', 'TransactionStatusChanged.v1', 'TransactionCompleted.v1']);
    const created = publisher.published[0].data as Record<string, unknown>;
    expect(created).not.toHaveProperty('plan');
    expect(created).not.toHaveProperty('rail');
    expect(created).toMatchObject({ transactionId: 'Transaction:1', status: 'PENDING', paymentRail: 'ACH', reference: 'REF-1' });
    expect(JSON.stringify(publisher.published)).not.toContain('secret saga plan');
    const { events: log } = await store.readAll(ds, LOG_START, 100);
    expect((await loadCheckpoint(ds, 'svc', 'outbox-relay')).position).toEqual(log[log.length - 1].globalPosition);

    // The log keeps the event whole.
    expect((log[0].data as Record<string, unknown>).plan).toBeDefined();
  });

  it('moves past a batch that holds internal events only, without publishing anything', async () => {
    const ds = db.dataSource;
    const idStore = new PostgresEventStore('svc');
    await idStore.append(ds, 'Customer:internal-only', 'no_stream', [{ type: 'ContactCodeIssued.v1', data: { channel: 'email', codeHash: 'h'.repeat(64), expiresAt: 'x', issuedAt: 'y' } }]);
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay({ db: ds, schema: 'svc', store: idStore, publisher, topic: 'payments.identity.events.v1', catalogue: IDENTITY_EVENTS, name: 'identity-relay' });
    // This relay starts at the log's beginning: the five payments events (undeclared here) and the internal one.
    let moved = 0;
    await eventually(async () => (moved += await relay.runOnce()) >= 6, { timeoutMs: 30_000, what: 'the relay moving past the internal event' });
    expect(publisher.published).toEqual([]);
    expect(publisher.published.map((e) => e.type)).not.toContain('ContactCodeIssued.v1');
    expect(JSON.stringify(publisher.published)).not.toContain('h'.repeat(64));
  });

  it('reconcile expects public events only and republishes them in their public form', async () => {
    const ds = db.dataSource;
    const log = await eventually(async () => {
      const { events } = await store.readAll(ds, LOG_START, 100);
      return events.length >= 5 && events;
    });
    const onTopic = new Set(log.filter((e) => e.type === 'TransactionStatusChanged.v1').map((e) => e.eventId));
    const publisher = new RecordingPublisher();
    const report = await reconcileRelay({ db: ds, store, topic: 'payments.payments.events.v1', publishedIds: onTopic, catalogue: PAYMENTS_EVENTS, publisher });
    // TransactionCreated and TransactionCompleted are missing; the internal and undeclared ones are not expected.
    expect(report.missing).toBe(2);
    expect(report.sample.map((s) => s.type)).toEqual(['TransactionCreated.v1', 'TransactionCompleted.v1']);
    expect(publisher.published.map((e: BusEnvelope) => e.type)).toEqual(['TransactionCreated.v1', 'TransactionCompleted.v1']);
    expect(publisher.published[0].data).not.toHaveProperty('plan');
    expect(report.scanned).toBeGreaterThan(report.expected);
  });
});

describe('OutboxRelay checkpoints and wake-ups (real PostgreSQL)', () => {
  let db: TestServiceDb;
  const store = new PostgresEventStore('svc');
  const happened = (n: number) => ({ type: 'TransactionCompleted.v1', data: { transactionId: `Transaction:${n}`, settledAt: '2026-01-01T00:00:00.000Z' } });
  const relayOf = (publisher: EventPublisher, options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) =>
    new OutboxRelay({ db: db.dataSource, schema: 'svc', store, publisher, topic: 'payments.payments.events.v1', catalogue: PAYMENTS_EVENTS, ...options });
  const ids = (publisher: RecordingPublisher) => publisher.published.map((e) => e.streamId);

  beforeEach(async () => {
    db = await openTestServiceDb('svc');
  });
  afterEach(() => db.close());

  it('republishes from the stored checkpoint after its checkpoint store failed, then moves on', async () => {
    await store.append(db.dataSource, 'Transaction:1', 'no_stream', [happened(1)]);
    const publisher = new RecordingPublisher();
    let crashes = 1;
    const relay = relayOf(publisher, {
      afterPublish: async () => {
        if (crashes-- > 0) throw new Error('checkpoint store lost');
      },
    });
    await eventually(async () => {
      await relay.runOnce().catch(() => 0);
      return publisher.published.length >= 2;
    }, { timeoutMs: 30_000, what: 'the batch published, the store failing, and the batch published again' });
    expect(ids(publisher)).toEqual(['Transaction:1', 'Transaction:1']); // at-least-once: the same batch again
    expect(await relay.runOnce()).toBe(0); // stored this time

    await store.append(db.dataSource, 'Transaction:2', 'no_stream', [happened(2)]);
    await eventually(async () => (await relay.runOnce()) > 0, { timeoutMs: 30_000, what: 'the next event' });
    expect(ids(publisher)).toEqual(['Transaction:1', 'Transaction:1', 'Transaction:2']);
  });

  it('starts where another process of its service stored the checkpoint, not where it last read', async () => {
    const [mine, theirs] = [new RecordingPublisher(), new RecordingPublisher()];
    const [relay, replica] = [relayOf(mine), relayOf(theirs)];
    await store.append(db.dataSource, 'Transaction:1', 'no_stream', [happened(1)]);
    await eventually(async () => (await relay.runOnce()) > 0, { timeoutMs: 30_000, what: 'the first event' });
    await store.append(db.dataSource, 'Transaction:2', 'no_stream', [happened(2)]);
    await eventually(async () => (await replica.runOnce()) > 0, { timeoutMs: 30_000, what: 'the replica relaying the second event' });
    expect(await relay.runOnce()).toBe(0);
    expect(ids(mine)).toEqual(['Transaction:1']);
    expect(ids(theirs)).toEqual(['Transaction:2']);
  });

  it('a started relay publishes on a nudge long before its poll, pages full logs, and stops promptly', async () => {
    const publisher = new RecordingPublisher();
    const relay = relayOf(publisher, { pollIntervalMs: 60_000, batchSizeMax: 2 });
    relay.start();
    try {
      for (let n = 1; n <= 5; n++) await store.append(db.dataSource, `Transaction:${n}`, 'no_stream', [happened(n)]);
      // A nudge per check: the xmin guard can hold a commit back from the read one nudge started.
      await eventually(async () => (relay.nudge(), publisher.published.length >= 5), { timeoutMs: 30_000, what: 'five events over pages of two' });
      expect(ids(publisher)).toEqual([1, 2, 3, 4, 5].map((n) => `Transaction:${n}`));
    } finally {
      const stopping = Date.now();
      await relay.stop();
      expect(Date.now() - stopping).toBeLessThan(5_000);
    }
  });
  it('a started relay stores its checkpoint once for pages published in quick succession, at once when it goes idle, and on stop', async () => {
    const publisher = new RecordingPublisher();
    let stores = 0;
    const ds = db.dataSource;
    const counting = { query: (sql: string, params?: unknown[]) => ((stores += /INSERT INTO "svc"\.checkpoints/.test(sql) ? 1 : 0), ds.query(sql, params)) };
    const relay = relayOf(publisher, { db: counting, pollIntervalMs: 300, batchSizeMax: 2 });
    for (let n = 1; n <= 6; n++) await store.append(ds, `Transaction:${n}`, 'no_stream', [happened(n)]);
    const last = (await store.readAll(ds, LOG_START, 100)).next;
    relay.start();
    try {
      await eventually(async () => (relay.nudge(), publisher.published.length >= 6), { timeoutMs: 30_000, what: 'six events over pages of two' });
      // Idle once a poll pause runs out with no nudge: the checkpoint is stored then, once (three before issue #30's change).
      await eventually(async () => (await loadCheckpoint(ds, 'svc', 'outbox-relay')).position === last.position, { timeoutMs: 5_000, what: 'the checkpoint stored once idle' });
      expect(stores).toBe(1);
      await store.append(ds, 'Transaction:7', 'no_stream', [happened(7)]);
      await eventually(async () => (relay.nudge(), publisher.published.length >= 7), { timeoutMs: 30_000, what: 'the seventh event' });
    } finally {
      await relay.stop();
    }
    expect((await loadCheckpoint(ds, 'svc', 'outbox-relay')).position).toBe((await store.readAll(ds, LOG_START, 100)).next.position); // stored on stop
  });

  it('an idle relay backs off its poll, and still finds an event no nudge announced within the idle bound', async () => {
    const publisher = new RecordingPublisher();
    let reads = 0;
    const ds = db.dataSource;
    const counting = { query: (sql: string, params?: unknown[]) => ((reads += /FROM "svc"\."events"/.test(sql) ? 1 : 0), ds.query(sql, params)) };
    const relay = relayOf(publisher, { db: counting, pollIntervalMs: 20, pollIdleMaxMs: 800 });
    relay.start();
    try {
      await new Promise((r) => setTimeout(r, 2_000));
      expect(reads).toBeGreaterThan(2);
      expect(reads).toBeLessThan(12); // 100 at a fixed 20 ms
      await store.append(ds, 'Transaction:1', 'no_stream', [happened(1)]); // another process's commit: no nudge here
      await eventually(async () => publisher.published.length === 1, { timeoutMs: 3_000, what: 'the unannounced event' });
    } finally {
      await relay.stop();
    }
  });
});
