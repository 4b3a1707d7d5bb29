import type { DataSource } from 'typeorm';
import { asTransactional, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { paymentsMigrations } from './payments.migrations';
import { listKeyOf } from './transactions/transaction-list-key';

const upTo = (version: number) => ({ ...paymentsMigrations, migrations: paymentsMigrations.migrations.filter((m) => m.version <= version) });
const row = (id: string, type: string, body: Record<string, unknown>, source: string | null, destination: string | null) => ({ id, type, body, source, destination });

/**
 * Migration 2 backfills the filter columns and gives the bodies written before it the public shape of today; 3 lets
 * CARD rows in and backfills the list key (creation order whatever the id's prefix).
 */
describe('payments migrations on PostgreSQL', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'payments' });
    await runMigrations(asTransactional(dataSource), 'payments', [upTo(1)]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('2: sender/receiver identifiers (account id or UMA address), platformCustomerId, reference; nulls dropped; published failure reasons', async () => {
    const common = { platformCustomerId: 'pc-1', reconciliationInstructions: { reference: 'REF1' }, quoteId: null, description: null, refund: null, settledAt: null };
    const rows = [
      row('Transaction:1', 'OUTGOING', { ...common, source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:1' }, failureReason: 'INSUFFICIENT_FUNDS', rateDetails: null, paymentRail: null }, 'InternalAccount:1', 'ExternalAccount:1'),
      row('Transaction:2', 'INCOMING', { ...common, platformCustomerId: null, source: { sourceType: 'UMA_ADDRESS', umaAddress: '$a@b.example' }, failureReason: null, settledAt: '2026-01-01T00:00:00.000Z' }, null, 'InternalAccount:2'),
      row('Transaction:3', 'INCOMING', { ...common, failureReason: 'ACCOUNT_CLOSED' }, 'ExternalAccount:3', 'InternalAccount:3'),
      row('Transaction:4', 'OUTGOING', { ...common, failureReason: 'PAYOUT_RETURNED', destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$c@d.example' } }, 'InternalAccount:4', null),
    ];
    for (const r of rows) {
      await dataSource.query(
        `INSERT INTO payments.transactions (transaction_id, platform_id, mode, type, status, source_account_id, destination_account_id, body, created_at, updated_at)
         VALUES ($1, 'Platform:1', 'SANDBOX', $2, 'FAILED', $3, $4, $5, now(), now())`,
        [r.id, r.type, r.source, r.destination, JSON.stringify(r.body)],
      );
    }
    expect(await runMigrations(asTransactional(dataSource), 'payments', [upTo(2)])).toEqual(['payments:0002_transactions_published_filters']);
    const after = await dataSource.query(`SELECT transaction_id, sender_identifier, receiver_identifier, platform_customer_id, reference, body FROM payments.transactions ORDER BY transaction_id`);
    expect(after.map((r: Record<string, unknown>) => [r.transaction_id, r.sender_identifier, r.receiver_identifier, r.platform_customer_id, r.reference])).toEqual([
      ['Transaction:1', 'InternalAccount:1', 'ExternalAccount:1', 'pc-1', 'REF1'],
      ['Transaction:2', '$a@b.example', 'InternalAccount:2', null, 'REF1'],
      ['Transaction:3', 'ExternalAccount:3', 'InternalAccount:3', 'pc-1', 'REF1'],
      ['Transaction:4', 'InternalAccount:4', '$c@d.example', 'pc-1', 'REF1'],
    ]);
    const bodies = after.map((r: { body: Record<string, unknown> }) => r.body);
    expect(bodies[0]).toEqual({ platformCustomerId: 'pc-1', reconciliationInstructions: { reference: 'REF1' }, source: rows[0].body.source, paymentRail: null, failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
    expect(bodies[1]).toEqual({ platformCustomerId: null, reconciliationInstructions: { reference: 'REF1' }, source: rows[1].body.source, settledAt: '2026-01-01T00:00:00.000Z' });
    expect(bodies[2]).toMatchObject({ failureReason: 'COLLECTION_FAILED', failureDetail: 'ACCOUNT_CLOSED' });
    expect(bodies[3]).toMatchObject({ failureReason: 'PAYOUT_RETURNED' });
    expect(bodies[3]).not.toHaveProperty('failureDetail');
  });

  it('3: type CARD allowed; list_key backfilled as `<createdAt UTC ms> <id>`, the format the writers use', async () => {
    await dataSource.query(`UPDATE payments.transactions SET created_at = '2026-02-03T04:05:06.789+02:00' WHERE transaction_id = 'Transaction:1'`);
    const card = `INSERT INTO payments.transactions (transaction_id, platform_id, mode, type, status, body, created_at, updated_at, list_key)
      VALUES ('CardTransaction:1', 'Platform:1', 'SANDBOX', 'CARD', 'AUTHORIZED', '{}', now(), now(), 'k')`;
    await expect(dataSource.query(card)).rejects.toThrow(/transactions_type_check|list_key/);
    expect(await runMigrations(asTransactional(dataSource), 'payments', [paymentsMigrations])).toEqual(['payments:0003_card_transactions']);
    const [first] = await dataSource.query(`SELECT list_key FROM payments.transactions WHERE transaction_id = 'Transaction:1'`);
    expect(first.list_key).toBe(listKeyOf('2026-02-03T02:05:06.789Z', 'Transaction:1'));
    expect(first.list_key).toBe('2026-02-03T02:05:06.789Z Transaction:1');
    await dataSource.query(card);
    await expect(
      dataSource.query(`INSERT INTO payments.transactions (transaction_id, platform_id, mode, type, status, body, created_at, updated_at, list_key) VALUES ('X:1', 'Platform:1', 'SANDBOX', 'OTHER', 'S', '{}', now(), now(), 'x')`),
    ).rejects.toThrow(/transactions_type_check/);
    await expect(
      dataSource.query(`INSERT INTO payments.transactions (transaction_id, platform_id, mode, type, status, body, created_at, updated_at) VALUES ('Transaction:9', 'Platform:1', 'SANDBOX', 'OUTGOING', 'S', '{}', now(), now())`),
    ).rejects.toThrow(/list_key/);
    expect(await runMigrations(asTransactional(dataSource), 'payments', [paymentsMigrations])).toEqual([]);
  });
});
