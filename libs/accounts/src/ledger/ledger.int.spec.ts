import type { DataSource } from 'typeorm';
import { asTransactional, CommandExecutor, DomainError, eventsourcingMigrations, PostgresEventStore, runMigrations } from '@payments/eventsourcing';
import { openServiceDatabase } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import { accountsMigrations } from '../accounts.migrations';
import { checkLedger } from './ledger-check';
import { LedgerService, systemAccountId } from './ledger.service';

const now = () => new Date().toISOString();

describe('LedgerService (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let ledger: LedgerService;
  let store: PostgresEventStore;
  const P = 'Platform:p';
  const funding = systemAccountId(P, 'SANDBOX', 'SANDBOX_FUNDING', 'USD');
  const clearing = systemAccountId(P, 'SANDBOX', 'CLEARING', 'USD');

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDatabase({ url: database.url, schema: 'accounts', poolSizeMax: 20 });
    await runMigrations(asTransactional(dataSource), 'accounts', [eventsourcingMigrations, accountsMigrations]);
    store = new PostgresEventStore('accounts');
    ledger = new LedgerService(dataSource, new CommandExecutor(asTransactional(dataSource), store));
    await dataSource.transaction(async (tx) => {
      for (const id of ['InternalAccount:a', 'InternalAccount:b']) await ledger.open(tx, { accountId: id, platformId: P, mode: 'SANDBOX', owner: 'CUSTOMER', customerId: 'Customer:c', currency: 'USD', purpose: 'CUSTOMER' }, now());
      await ledger.open(tx, { accountId: 'InternalAccount:eur', platformId: P, mode: 'SANDBOX', owner: 'CUSTOMER', customerId: 'Customer:c', currency: 'EUR', purpose: 'CUSTOMER' }, now());
    });
  });
  afterEach(async () => expect(await checkLedger(dataSource, store)).toEqual([]));
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const fund = (account: string, amount: number, entryId: string) =>
    ledger.postEntry(P, 'SANDBOX', { entryId, reference: 'fund', kind: 'SANDBOX_FUNDING', legs: [{ accountId: account, currency: 'USD', amount }, { accountId: funding, currency: 'USD', amount: -amount }] }, now(), { systemAccounts: [{ accountId: funding, currency: 'USD', amount: 0 }] });
  const balance = async (account: string) => (await dataSource.query(`SELECT total::int, held::int FROM ledger_accounts WHERE account_id = $1`, [account]))[0];

  it('funds through a balanced entry, once per entry id', async () => {
    await fund('InternalAccount:a', 10_000, 'fund-1');
    await fund('InternalAccount:a', 10_000, 'fund-1'); // redelivered
    expect(await balance('InternalAccount:a')).toEqual({ total: 10_000, held: 0 });
  });

  it('never overdraws under 50 parallel debits against one account', async () => {
    await fund('InternalAccount:b', 1_000, 'fund-b');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        ledger.postEntry(P, 'SANDBOX', { entryId: `debit-${i}`, reference: 'payout', kind: 'PAYOUT', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: -30 }, { accountId: clearing, currency: 'USD', amount: 30 }] }, now(), { systemAccounts: [{ accountId: clearing, currency: 'USD', amount: 0 }] }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason.message)).filter((m) => !m.startsWith('available'))).toEqual([]);
    expect(ok).toBe(33); // floor(1000 / 30)
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.code === 'INSUFFICIENT_FUNDS')).toBe(true);
    expect(await balance('InternalAccount:b')).toEqual({ total: 10, held: 0 });
  });

  it('holds reserve funds; capture posts part of it, the rest frees up; release and expiry are idempotent', async () => {
    await ledger.placeHold(P, 'InternalAccount:a', { holdId: 'hold-1', amount: 4_000, reference: 'Transaction:t1' }, now());
    expect(await balance('InternalAccount:a')).toEqual({ total: 10_000, held: 4_000 });
    await expect(ledger.placeHold(P, 'InternalAccount:a', { holdId: 'hold-2', amount: 6_001, reference: 'x' }, now())).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const capture = { entryId: 'capture-1', reference: 'hold-1', kind: 'PAYOUT', legs: [{ accountId: 'InternalAccount:a', currency: 'USD', amount: -3_500, holdId: 'hold-1' }, { accountId: clearing, currency: 'USD', amount: 3_500 }] };
    await ledger.postEntry(P, 'SANDBOX', capture, now(), { systemAccounts: [{ accountId: clearing, currency: 'USD', amount: 0 }] });
    await ledger.postEntry(P, 'SANDBOX', capture, now()); // replay
    expect(await balance('InternalAccount:a')).toEqual({ total: 6_500, held: 0 });
    await ledger.placeHold(P, 'InternalAccount:a', { holdId: 'hold-3', amount: 500, reference: 'y' }, now());
    await ledger.releaseHold(P, 'InternalAccount:a', 'hold-3', 'RELEASED', now());
    await ledger.releaseHold(P, 'InternalAccount:a', 'hold-3', 'EXPIRED', now());
    expect(await balance('InternalAccount:a')).toEqual({ total: 6_500, held: 0 });
  });

  it('reverses a posted entry (a returned payment) exactly once', async () => {
    await ledger.reverse(P, 'SANDBOX', 'capture-1', 'reversal-1', now());
    await ledger.reverse(P, 'SANDBOX', 'capture-1', 'reversal-1', now());
    expect(await balance('InternalAccount:a')).toEqual({ total: 10_000, held: 0 });
  });

  it('posts all legs or none: a failing leg leaves the other untouched', async () => {
    const before = await balance('InternalAccount:a');
    await expect(
      ledger.postEntry(P, 'SANDBOX', { entryId: 'bad-1', reference: 'x', kind: 'TRANSFER', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: -1_000_000 }, { accountId: 'InternalAccount:a', currency: 'USD', amount: 1_000_000 }] }, now()),
    ).rejects.toBeInstanceOf(DomainError);
    expect(await balance('InternalAccount:a')).toEqual(before);
    await expect(
      ledger.postEntry(P, 'SANDBOX', { entryId: 'bad-2', reference: 'x', kind: 'TRANSFER', legs: [{ accountId: 'InternalAccount:eur', currency: 'USD', amount: -1 }, { accountId: 'InternalAccount:a', currency: 'USD', amount: 1 }] }, now()),
    ).rejects.toMatchObject({ code: 'INVALID_CURRENCY' });
    await expect(ledger.postEntry('Platform:other', 'SANDBOX', { entryId: 'bad-3', reference: 'x', kind: 'TRANSFER', legs: [{ accountId: 'InternalAccount:a', currency: 'USD', amount: -1 }, { accountId: 'InternalAccount:b', currency: 'USD', amount: 1 }] }, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('lets one of two racing first calls with the same entry id and different legs win; the other is 409', async () => {
    await fund('InternalAccount:a', 100, 'fund-race');
    const entry = (to: string) => ({ entryId: 'race-1', reference: 'r', kind: 'TRANSFER', legs: [{ accountId: 'InternalAccount:a', currency: 'USD', amount: -10 }, { accountId: to, currency: 'USD', amount: 10 }] });
    const results = await Promise.allSettled([ledger.postEntry(P, 'SANDBOX', entry('InternalAccount:b'), now()), ledger.postEntry(P, 'SANDBOX', entry(clearing), now())]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.code).toBe('CONFLICT');
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM journal_postings WHERE entry_id = 'race-1'`))[0].n).toBe(2);
    const reversed = await ledger.reverse(P, 'SANDBOX', 'race-1', 'race-1-rev-a', now());
    expect(reversed?.get('InternalAccount:a')).toMatchObject(await balance('InternalAccount:a')); // the accounts as posted
    await expect(ledger.reverse(P, 'SANDBOX', 'race-1', 'race-1-rev-a', now())).resolves.toBeUndefined(); // replay: posts nothing
    await expect(ledger.reverse(P, 'SANDBOX', 'race-1', 'race-1-rev-b', now())).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('answers an entry with its accounts as posted: the balances the read model holds after it', async () => {
    const posted = await fund('InternalAccount:b', 70, 'answer-1');
    expect(posted?.get('InternalAccount:b')).toMatchObject(await balance('InternalAccount:b'));
    expect(posted?.get(funding)).toMatchObject({ status: 'OPEN', owner: 'SYSTEM' });
    await expect(fund('InternalAccount:b', 70, 'answer-1')).resolves.toBeUndefined(); // a replay posts nothing
  });

  it('posts once through a stale cached fold (another process appended to the account meanwhile)', async () => {
    const otherProcess = new LedgerService(dataSource, new CommandExecutor(asTransactional(dataSource), store));
    await fund('InternalAccount:b', 100, 'stale-1'); // this process now holds b's fold
    await otherProcess.postEntry(P, 'SANDBOX', { entryId: 'stale-2', reference: 'fund', kind: 'SANDBOX_FUNDING', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: 50 }, { accountId: funding, currency: 'USD', amount: -50 }] }, now());
    const before = await balance('InternalAccount:b');
    const debit = { entryId: 'stale-3', reference: 'payout', kind: 'PAYOUT', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: -30 }, { accountId: clearing, currency: 'USD', amount: 30 }] };
    const posted = await ledger.postEntry(P, 'SANDBOX', debit, now());
    expect(await balance('InternalAccount:b')).toEqual({ total: before.total - 30, held: before.held });
    expect(posted?.get('InternalAccount:b')).toMatchObject({ total: before.total - 30 });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM journal_postings WHERE entry_id = 'stale-3'`))[0].n).toBe(2);
  });

  it('does not refuse on a stale fold what another process (a replica) made possible: a hold placed there, funds credited there', async () => {
    const replica = new LedgerService(dataSource, new CommandExecutor(asTransactional(dataSource), store));
    await fund('InternalAccount:b', 10, 'replica-1'); // this process folds b
    await replica.placeHold(P, 'InternalAccount:b', { holdId: 'replica-hold', amount: 10, reference: 'x' }, now());
    const capture = { entryId: 'replica-2', reference: 'x', kind: 'PAYOUT', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: -10, holdId: 'replica-hold' }, { accountId: clearing, currency: 'USD', amount: 10 }] };
    await expect(ledger.postEntry(P, 'SANDBOX', capture, now(), { systemAccounts: [{ accountId: clearing, currency: 'USD', amount: 0 }] })).resolves.toBeDefined();
    await replica.postEntry(P, 'SANDBOX', { entryId: 'replica-3', reference: 'fund', kind: 'SANDBOX_FUNDING', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: 25 }, { accountId: funding, currency: 'USD', amount: -25 }] }, now());
    const { total, held } = await balance('InternalAccount:b');
    const debit = { entryId: 'replica-4', reference: 'x', kind: 'PAYOUT', legs: [{ accountId: 'InternalAccount:b', currency: 'USD', amount: -(total - held) }, { accountId: clearing, currency: 'USD', amount: total - held }] };
    await expect(ledger.postEntry(P, 'SANDBOX', debit, now())).resolves.toBeDefined();
    await replica.placeHold(P, 'InternalAccount:b', { holdId: 'replica-hold-2', amount: 1, reference: 'x' }, now()).catch(() => undefined);
    await fund('InternalAccount:b', 5, 'replica-5');
    await expect(replica.placeHold(P, 'InternalAccount:b', { holdId: 'replica-hold-3', amount: 5, reference: 'x' }, now())).resolves.toMatchObject({ held: 5 });
    expect(await balance('InternalAccount:b')).toEqual({ total: 5, held: 5 });
  });

  it('refuses an account whose opening rolled back though this process folded it (nothing posted)', async () => {
    await expect(dataSource.transaction(async (tx) => {
      await ledger.open(tx, { accountId: 'InternalAccount:ghost', platformId: P, mode: 'SANDBOX', owner: 'CUSTOMER', customerId: 'Customer:c', currency: 'USD', purpose: 'CUSTOMER' }, now());
      throw new Error('the account creation failed after the ledger opened it');
    })).rejects.toThrow('failed');
    const entry = { entryId: 'ghost-1', reference: 'x', kind: 'TRANSFER', legs: [{ accountId: 'InternalAccount:a', currency: 'USD', amount: -1 }, { accountId: 'InternalAccount:ghost', currency: 'USD', amount: 1 }] };
    await expect(ledger.postEntry(P, 'SANDBOX', entry, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM journal_entries WHERE entry_id = 'ghost-1'`))[0].n).toBe(0);
  });

  it("refuses a caller's leg on a SYSTEM account or on another platform's account (NOT_FOUND), before the entry id is claimed", async () => {
    await fund('InternalAccount:a', 10, 'scope-fund');
    const legs = (to: string) => [{ accountId: 'InternalAccount:a', currency: 'USD', amount: -1 }, { accountId: to, currency: 'USD', amount: 1 }];
    await expect(ledger.postEntry(P, 'SANDBOX', { entryId: 'scope-1', reference: 'x', kind: 'TRANSFER', legs: legs(funding) }, now(), { callerLegs: ['InternalAccount:a', funding] })).rejects.toMatchObject({ code: 'NOT_FOUND', message: `account ${funding} not found` });
    await dataSource.transaction((tx) => ledger.open(tx, { accountId: 'InternalAccount:theirs', platformId: 'Platform:other', mode: 'SANDBOX', owner: 'CUSTOMER', currency: 'USD', purpose: 'CUSTOMER' }, now()));
    await expect(ledger.postEntry(P, 'SANDBOX', { entryId: 'scope-2', reference: 'x', kind: 'TRANSFER', legs: legs('InternalAccount:theirs') }, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ledger.postEntry(P, 'PRODUCTION', { entryId: 'scope-3', reference: 'x', kind: 'TRANSFER', legs: legs('InternalAccount:b') }, now())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM journal_entries WHERE entry_id LIKE 'scope-_'`))[0].n).toBe(0);
    // The ledger's own entries (a reversal) may name system accounts.
    await expect(ledger.postEntry(P, 'SANDBOX', { entryId: 'scope-4', reference: 'x', kind: 'TRANSFER', legs: legs(funding) }, now())).resolves.toBeDefined();
  });

  it('the checker finds a tampered balance', async () => {
    await dataSource.query(`UPDATE ledger_accounts SET total = total + 1 WHERE account_id = 'InternalAccount:a'`);
    const violations = await checkLedger(dataSource, store);
    expect(violations.map((v) => v.rule).sort()).toEqual(['BALANCE_MISMATCH', 'FOLD_MISMATCH']);
    await dataSource.query(`UPDATE ledger_accounts SET total = total - 1 WHERE account_id = 'InternalAccount:a'`);
  });
});
