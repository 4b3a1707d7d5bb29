import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { accountsMigrations } from '../accounts.migrations';
import { externalAccountsMigrations } from './external-accounts.migrations';

describe('external accounts migrations on a populated database', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'accounts' });
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('puts production accounts created before production verification in the operator queue (OPERATOR_APPROVAL); sandbox ones get no method', async () => {
    const before = { module: 'accounts-external', migrations: externalAccountsMigrations.migrations.slice(0, 2) };
    await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations, before]);
    const insert = (id: string, mode: string) =>
      dataSource.query(
        `INSERT INTO external_accounts (external_account_id, platform_id, mode, customer_id, status, currency, trusted, body, created_at, updated_at)
         VALUES ($1, 'Platform:1', $2, NULL, 'PENDING', 'NGN', false, '{}', now(), now())`,
        [id, mode],
      );
    await insert('ExternalAccount:p', 'PRODUCTION');
    await insert('ExternalAccount:s', 'SANDBOX');

    expect(await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations, externalAccountsMigrations])).toEqual(['accounts-external:0003_production_verification']);
    expect(await dataSource.query(`SELECT external_account_id, verification_method FROM external_accounts ORDER BY external_account_id`)).toEqual([
      { external_account_id: 'ExternalAccount:p', verification_method: 'OPERATOR_APPROVAL' },
      { external_account_id: 'ExternalAccount:s', verification_method: null },
    ]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM account_verification_methods`)).toEqual([{ n: 0 }]);
  });
});
