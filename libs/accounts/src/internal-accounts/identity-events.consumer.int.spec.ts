import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { asTransactional, CommandExecutor, eventsourcingMigrations, PostgresEventStore, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase, untouchable } from '@payments/testing';
import type { Mode } from '@payments/contracts';
import { accountsMigrations } from '../accounts.migrations';
import { externalAccountsMigrations } from '../external-accounts/external-accounts.migrations';
import { LedgerService } from '../ledger/ledger.service';
import { IdentityEventsConsumer } from './identity-events.consumer';
import { internalAccountId, InternalAccountService } from './internal-account.service';

const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));

/** Embedded Wallets opened from identity's events, against real PostgreSQL (the consumer, the ledger, its read model). */
describe('accounts identity consumer: Embedded Wallets (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: IdentityEventsConsumer;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'accounts' });
    await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations, externalAccountsMigrations]);
    const ledger = new LedgerService(dataSource, new CommandExecutor(asTransactional(dataSource), new PostgresEventStore('accounts')));
    consumer = new IdentityEventsConsumer(dataSource, new InternalAccountService(dataSource, ledger, untouchable('claims')), 'accounts');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  let clock = Date.parse('2026-01-01T00:00:00.000Z');
  const tick = () => new Date((clock += 1_000)).toISOString();
  const envelope = (type: string, streamId: string, data: Record<string, unknown>) => ({
    eventId: randomUUID(),
    type,
    streamId,
    streamVersion: 1,
    globalPosition: '1',
    occurredAt: new Date(clock).toISOString(),
    platformId: String(data.platformId ?? 'Platform:x'),
    data,
    metadata: {},
  });

  /** A platform and mode with its configuration stream; `set` sends Initialized first, then Updated. */
  const platform = (mode: Mode = 'SANDBOX', platformId = `Platform:${randomUUID()}`) => {
    const configStream = `PlatformConfig:${randomUUID()}`;
    let initialized = false;
    return {
      platformId,
      mode,
      config: (codes: string[]) => {
        const at = tick();
        const event = initialized
          ? envelope('PlatformConfigUpdated.v1', configStream, { changes: { supportedCurrencies: currencies(codes) }, at })
          : envelope('PlatformConfigInitialized.v1', configStream, { configId: configStream, platformId, mode, supportedCurrencies: currencies(codes), at });
        initialized = true;
        return event;
      },
      customer: (own: string[]) => {
        const customerId = `Customer:${randomUUID()}`;
        return { customerId, event: envelope('CustomerCreated.v1', customerId, { customerId, platformId, mode, customerType: 'INDIVIDUAL', currencies: own, createdAt: tick() }) };
      },
    };
  };

  const accountsOf = async (customerId: string) =>
    (await dataSource.query(`SELECT account_id, currency, purpose FROM ledger_accounts WHERE customer_id = $1 ORDER BY currency`, [customerId])) as { account_id: string; currency: string; purpose: string }[];
  const walletsOf = async (customerId: string) => (await accountsOf(customerId)).filter((a) => a.purpose === 'EMBEDDED_WALLET');

  it('a customer created on a USDB platform gets one Embedded Wallet in USDB, once, even redelivered', async () => {
    const p = platform();
    await consumer.handle(p.config(['USD', 'USDB']));
    const { customerId, event } = p.customer(['USD']);
    await consumer.handle(event);
    await consumer.handle(event);
    expect(await accountsOf(customerId)).toEqual([
      { account_id: internalAccountId(p.platformId, 'SANDBOX', customerId, 'USD'), currency: 'USD', purpose: 'CUSTOMER' },
      { account_id: internalAccountId(p.platformId, 'SANDBOX', customerId, 'USDB'), currency: 'USDB', purpose: 'EMBEDDED_WALLET' },
    ]);
  });

  it('the customer\'s own USDB account is the Embedded Wallet: one USDB account', async () => {
    const p = platform('PRODUCTION');
    await consumer.handle(p.config(['USD', 'USDB']));
    const { customerId, event } = p.customer(['USDB', 'USD']);
    await consumer.handle(event);
    expect((await accountsOf(customerId)).filter((a) => a.currency === 'USDB')).toEqual([
      { account_id: internalAccountId(p.platformId, 'PRODUCTION', customerId, 'USDB'), currency: 'USDB', purpose: 'EMBEDDED_WALLET' },
    ]);
  });

  it('none on a platform without USDB, nor from the other mode\'s configuration; not retroactive when USDB is added', async () => {
    const sandbox = platform();
    const production = platform('PRODUCTION', sandbox.platformId);
    await consumer.handle(sandbox.config(['USD']));
    await consumer.handle(production.config(['USD', 'USDB']));
    const before = sandbox.customer(['USD']);
    await consumer.handle(before.event);
    expect(await walletsOf(before.customerId)).toEqual([]);

    await consumer.handle(sandbox.config(['USD', 'USDB']));
    expect(await walletsOf(before.customerId)).toEqual([]);
    const after = sandbox.customer(['USD']);
    await consumer.handle(after.event);
    expect(await walletsOf(after.customerId)).toHaveLength(1);
  });

  it('a customer read before the configuration change that preceded it (Kafka: other partition) still gets one', async () => {
    const p = platform();
    await consumer.handle(p.config(['USD']));
    const older = p.customer(['USD']);
    const addUsdb = p.config(['USD', 'USDB']);
    const newer = p.customer(['USD']);
    const deleted = p.customer(['USD']);
    // Read out of order: the two customers created after USDB was added come first.
    await consumer.handle(older.event);
    await consumer.handle(newer.event);
    await consumer.handle(deleted.event);
    await consumer.handle(envelope('CustomerDeleted.v1', deleted.customerId, { customerId: deleted.customerId, deletedAt: tick() }));
    expect(await walletsOf(newer.customerId)).toEqual([]);
    await consumer.handle(addUsdb);
    expect(await walletsOf(newer.customerId)).toEqual([{ account_id: internalAccountId(p.platformId, 'SANDBOX', newer.customerId, 'USDB'), currency: 'USDB', purpose: 'EMBEDDED_WALLET' }]);
    expect(await walletsOf(older.customerId)).toEqual([]);
    expect(await walletsOf(deleted.customerId)).toEqual([]);
  });

  it('the platform itself holds USDB in an ordinary platform account', async () => {
    const p = platform();
    await consumer.handle(p.config(['USDB']));
    expect(await dataSource.query(`SELECT currency, purpose FROM ledger_accounts WHERE platform_id = $1 AND owner = 'PLATFORM'`, [p.platformId])).toEqual([{ currency: 'USDB', purpose: 'PLATFORM' }]);
  });
});
