import type { DataSource } from 'typeorm';
import { asTransactional, EventEnvelope, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { QuotingIdentityEventsConsumer } from './platform-config/identity-events.consumer';
import { quotingMigrations } from './quoting.migrations';

const envelope = (eventId: string, type: string, data: unknown): EventEnvelope =>
  ({ eventId, type, streamId: 'PlatformConfig:1', streamVersion: 1, globalPosition: '1', occurredAt: new Date().toISOString(), platformId: 'Platform:1', data, metadata: {} }) as EventEnvelope;

describe('quoting schema and platform limits (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'quoting' });
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('migrates an empty database once; a second run changes nothing', async () => {
    expect(await runMigrations(asTransactional(dataSource), 'quoting', [eventsourcingMigrations, quotingMigrations])).toContain('quoting:0001_quotes');
    expect(await runMigrations(asTransactional(dataSource), 'quoting', [eventsourcingMigrations, quotingMigrations])).toEqual([]);
  });

  it('keeps the platform currency limits from identity events, once per event', async () => {
    const consumer = new QuotingIdentityEventsConsumer(dataSource, 'quoting');
    const usd = { currencyCode: 'USD', minAmount: 1, maxAmount: 100, requiredCounterpartyFields: [] };
    const initialized = envelope('00000000-0000-7000-8000-000000000001', 'PlatformConfigInitialized.v1', { platformId: 'Platform:1', mode: 'SANDBOX', supportedCurrencies: [usd] });
    await consumer.handle(initialized);
    await consumer.handle(initialized);
    await consumer.handle(envelope('00000000-0000-7000-8000-000000000002', 'PlatformConfigUpdated.v1', { changes: { supportedCurrencies: [{ ...usd, maxAmount: 500 }] } }));
    await consumer.handle(envelope('00000000-0000-7000-8000-000000000003', 'PlatformConfigUpdated.v1', { changes: { umaDomain: 'x.example.com' } }));
    expect(await dataSource.query(`SELECT platform_id, mode, configs FROM platform_currency_configs`)).toEqual([
      { platform_id: 'Platform:1', mode: 'SANDBOX', configs: [{ currencyCode: 'USD', minAmount: 1, maxAmount: 500 }] },
    ]);
  });
});
