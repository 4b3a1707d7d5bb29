import type { DataSource } from 'typeorm';
import { asTransactional, EventEnvelope, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { invitationsMigrations } from '../invitations/invitations.migrations';
import { CustomerDirectory } from './customer-directory';
import { paymentsDirectoryMigrations } from './customers.migrations';
import { PaymentsIdentityEventsConsumer } from './identity-events.consumer';

const CUSTOMER = 'Customer:0190f5a0-0000-7000-8000-000000000001';
let position = 0;
const envelope = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  eventId: `00000000-0000-4000-8000-${String(++position).padStart(12, '0')}`, type, streamId: CUSTOMER, streamVersion: position, globalPosition: String(position),
  occurredAt: new Date().toISOString(), platformId: 'Platform:1', data, metadata: {},
});

describe('payments customer directory on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumer: PaymentsIdentityEventsConsumer;
  const scope = { platformId: 'Platform:1', mode: 'SANDBOX' as const };
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'payments' });
    consumer = new PaymentsIdentityEventsConsumer(dataSource, 'payments');
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('migrates an empty database, then finds nothing to do on a populated one', async () => {
    const sets = [eventsourcingMigrations, paymentsDirectoryMigrations, invitationsMigrations];
    expect(await runMigrations(asTransactional(dataSource), 'payments', sets)).toEqual(expect.arrayContaining(['payments-directory:0001_customers', 'payments-invitations:0001_invitations']));
    await consumer.handle(envelope('CustomerCreated.v1', { customerId: CUSTOMER, platformId: 'Platform:1', mode: 'SANDBOX', umaAddress: '$Alice@platform.example', platformCustomerId: 'p-1', currencies: ['USD'] }));
    expect(await runMigrations(asTransactional(dataSource), 'payments', sets)).toEqual([]);
  });

  it('applies created, updated and deleted customers once each, redelivery included', async () => {
    const directory = new CustomerDirectory(dataSource, 0);
    expect(await directory.byUmaAddress(scope, '$alice@PLATFORM.example')).toMatchObject({ customerId: CUSTOMER, platformCustomerId: 'p-1', currencies: ['USD'] });
    expect(await directory.byUmaAddress({ ...scope, mode: 'PRODUCTION' }, '$alice@platform.example')).toBeUndefined();
    await expect(directory.byId({ ...scope, platformId: 'Platform:2' }, CUSTOMER)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });

    const updated = envelope('CustomerUpdated.v1', { changes: { umaAddress: '$alice2@platform.example', currencies: ['USD', 'EUR'] } });
    await consumer.handle(updated);
    await dataSource.query(`UPDATE customers SET currencies = '["USD"]'::jsonb WHERE customer_id = $1`, [CUSTOMER]);
    await consumer.handle(updated); // redelivered: the inbox skips it, the manual change stays
    expect(await directory.byId(scope, CUSTOMER)).toMatchObject({ umaAddress: '$alice2@platform.example', currencies: ['USD'] });
    expect(await directory.byUmaAddress(scope, '$alice@platform.example')).toBeUndefined();

    await consumer.handle(envelope('CustomerDeleted.v1', { customerId: CUSTOMER, deletedAt: new Date().toISOString() }));
    expect(await directory.byUmaAddress(scope, '$alice2@platform.example')).toBeUndefined();
    await expect(directory.byId(scope, CUSTOMER)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});
