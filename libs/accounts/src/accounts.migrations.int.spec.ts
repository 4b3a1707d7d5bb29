import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { accountsMigrations } from './accounts.migrations';

describe('accounts migrations on a populated database', () => {
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

  it('backfills journal_entries from existing postings so old entry ids keep their meaning, and turns privacy off on existing accounts', async () => {
    const v1 = { module: 'accounts', migrations: accountsMigrations.migrations.slice(0, 1) };
    await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, v1]);
    const at = new Date().toISOString();
    for (const id of ['A', 'S']) {
      await dataSource.query(`INSERT INTO ledger_accounts (account_id, platform_id, mode, owner, currency, purpose, created_at, updated_at) VALUES ($1, 'P', 'SANDBOX', $2, 'USD', 'x', $3, $3)`, [id, id === 'S' ? 'SYSTEM' : 'CUSTOMER', at]);
    }
    const leg = (entry: string, account: string, amount: number, kind: string, reference: string) =>
      dataSource.query(`INSERT INTO journal_postings VALUES ($1, $2, 'P', 'SANDBOX', 'USD', $3, $4, $5, $6)`, [entry, account, amount, kind, reference, at]);
    await leg('e1', 'A', 50, 'FUND', 'e1');
    await leg('e1', 'S', -50, 'FUND', 'e1');
    await leg('r1', 'A', -50, 'REVERSAL', 'e1');
    await leg('r1', 'S', 50, 'REVERSAL', 'e1');

    expect(await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations])).toEqual(['accounts:0002_journal_entries', 'accounts:0003_internal_account_privacy', 'accounts:0004_ledger_check_runs', 'accounts:0005_ledger_by_reference', 'accounts:0006_funding_references']);
    expect(await dataSource.query(`SELECT entry_id, kind, legs, reverses FROM journal_entries ORDER BY entry_id`)).toEqual([
      { entry_id: 'e1', kind: 'FUND', legs: 'A=50,S=-50', reverses: null },
      { entry_id: 'r1', kind: 'REVERSAL', legs: 'A=-50,S=50', reverses: 'e1' },
    ]);
    // Accounts opened before wallet privacy existed have it off.
    expect(await dataSource.query(`SELECT account_id, private_enabled FROM ledger_accounts ORDER BY account_id`)).toEqual([
      { account_id: 'A', private_enabled: false },
      { account_id: 'S', private_enabled: false },
    ]);
  });
});
