import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { createAppRegistry, openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, sampleOf, TestDatabase } from '@payments/testing';
import { accountsMigrations } from '../accounts.migrations';
import { lastLedgerCheckRun, recordLedgerCheckRun, registerLedgerCheckMetrics } from './ledger-check-runs';

/** The last ledger:check as the accounts service exposes it; the run itself is covered by the admin CLI's e2e test. */
describe('ledger check runs (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'accounts' });
    await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations]);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('reports no run as timestamp 0, then the latest run: pass, fail with its violations, pass again', async () => {
    const registry = createAppRegistry('accounts-check-test');
    registerLedgerCheckMetrics(registry, dataSource);
    const read = async () => {
      const text = await registry.metrics();
      return ['ok', 'last_run_timestamp_seconds', 'violations'].map((m) => sampleOf(text, `payments_ledger_check_${m}`));
    };
    expect(await read()).toEqual([0, 0, 0]);
    expect(await lastLedgerCheckRun(dataSource)).toBeUndefined();

    await recordLedgerCheckRun(dataSource, { accountsChecked: 4, violations: [] });
    const [ok, at, violations] = await read();
    expect([ok, violations]).toEqual([1, 0]);
    expect(Math.abs(at! - Date.now() / 1000)).toBeLessThan(60);

    await recordLedgerCheckRun(dataSource, { accountsChecked: 4, violations: [{ rule: 'OVERDRAWN' }, { rule: 'FOLD_MISMATCH' }, { rule: 'OVERDRAWN' }] });
    expect((await read()).filter((_, i) => i !== 1)).toEqual([0, 3]);
    expect(await lastLedgerCheckRun(dataSource)).toMatchObject({ accountsChecked: 4, violations: 3, rules: ['FOLD_MISMATCH', 'OVERDRAWN'] });

    await recordLedgerCheckRun(dataSource, { accountsChecked: 5, violations: [] });
    expect((await read())[0]).toBe(1);
  });
});
