import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { asTransactional, eventsourcingMigrations, runMigrations } from '@payments/eventsourcing';
import { configureProductionRails, EMPTY_RAILS_CONFIG } from '@payments/contracts';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { accountsMigrations } from '../accounts.migrations';
import { externalAccountsMigrations } from '../external-accounts/external-accounts.migrations';
import { FundingReferences } from './funding-references';
import type { LedgerAccountRow } from './internal-account.view';

/** Allocation of references and virtual account numbers against real PostgreSQL, several at once as replicas would. */
describe('funding references (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSources: DataSource[];

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two pools: two replicas of accounts showing accounts at the same moment.
    dataSources = [await openServiceDatabase({ url: database.url, schema: 'accounts' }), await openServiceDatabase({ url: database.url, schema: 'accounts' })];
    await runMigrations(asTransactional(dataSources[0]), 'accounts', [eventsourcingMigrations, accountsMigrations, externalAccountsMigrations]);
    configureProductionRails({ connectors: [], depositAccounts: [{ currency: 'USD', bankName: 'B', accountHolderName: 'H', routingNumber: '021000021', virtualAccounts: { from: '7700', to: '7711' } }] });
  });
  afterAll(async () => {
    configureProductionRails(EMPTY_RAILS_CONFIG);
    for (const d of dataSources ?? []) await d.destroy();
    await database?.drop();
  });

  const row = (over: Partial<LedgerAccountRow> = {}): LedgerAccountRow => ({
    account_id: `InternalAccount:${randomUUID()}`, platform_id: `Platform:${randomUUID()}`, mode: 'PRODUCTION', owner: 'CUSTOMER', customer_id: 'Customer:c', currency: 'USD', purpose: 'CUSTOMER',
    total: '0', held: '0', private_enabled: false, created_at: new Date(), updated_at: new Date(), ...over,
  });

  it('gives accounts shown at once by two replicas distinct numbers and references, each kept when shown again; a range used up gives none', async () => {
    const rows = Array.from({ length: 14 }, () => row());
    const answers = await Promise.all(rows.map((r, i) => new FundingReferences(dataSources[i % 2]).of([r])));
    const got = rows.map((r, i) => answers[i].get(r.account_id)!);
    const numbers = got.map((g) => g.virtualAccountNumber).filter((n): n is string => n !== null).sort();
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => String(7700 + i)));
    expect(got.filter((g) => g.virtualAccountNumber === null)).toHaveLength(2);
    expect(new Set(got.map((g) => g.reference)).size).toBe(14);
    // The same account shown by both replicas at once: one allocation.
    const again = await Promise.all(dataSources.map((d) => new FundingReferences(d).of([rows[0]])));
    expect(again.map((m) => m.get(rows[0].account_id))).toEqual([got[0], got[0]]);
  });

  it('allocates nothing for sandbox, system, wallet accounts or a currency without a deposit account', async () => {
    const refs = new FundingReferences(dataSources[0]);
    const none = [row({ mode: 'SANDBOX' }), row({ owner: 'SYSTEM' }), row({ purpose: 'EMBEDDED_WALLET' }), row({ currency: 'EUR' })];
    expect((await refs.of(none)).size).toBe(0);
  });
});
