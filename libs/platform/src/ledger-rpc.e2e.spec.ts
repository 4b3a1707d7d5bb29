import { checkLedger } from '@payments/accounts';
import { ApiError, CallerContext, CaptureHoldRequest, CreditRequest, LedgerRpc, PlaceHoldRequest, RpcContract, RpcRequest, TransferRequest } from '@payments/contracts';
import { ServiceClient } from '@payments/gateway';
import { eventually, freePort } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));

/** The ledger RPC as the payments service will use it: over real TCP, with the caller context of a platform. */
describe('ledger RPC for other services', () => {
  let t: TestPlatform;
  let client: ServiceClient;
  let caller: CallerContext;
  let n = 0;
  const id = (prefix: string) => `${prefix}-${++n}`;

  const send = <Body, Result>(contract: RpcContract<RpcRequest<Body>, Result>, body: NoInfer<Body>, as: CallerContext = caller) => client.call(contract, { caller: as, body });
  /** The error envelope a command answers; `body` is deliberately untyped, to send malformed bodies too. */
  const failure = async (contract: RpcContract<RpcRequest<unknown>, unknown>, body: unknown, as: CallerContext = caller): Promise<{ status: number; code: string }> => {
    const error = await send(contract, body, as).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`expected an error envelope from ${contract.pattern}, got ${String(error)}`);
    return { status: error.status, code: error.code };
  };
  const eventsOf = async (accountId: string) => t.platform.accounts.host.store.readStream(t.platform.accounts.host.dataSource, accountId);
  const timerOf = async (holdId: string): Promise<{ fired_at: Date | null }> =>
    (await t.platform.accounts.host.dataSource.query(`SELECT fired_at FROM accounts.timers WHERE name = 'ledger.hold-expiry' AND payload->>'holdId' = $1`, [holdId]))[0];

  /** A new customer's USD internal account, credited with `amount` from CLEARING (an incoming payment). */
  const fundedAccount = async (amount: number): Promise<string> => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ledger' } })).body;
    const page = await eventually(async () => {
      const res = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD`)).body;
      return res.data.length === 1 ? res : undefined;
    }, { what: 'the USD internal account' });
    const accountId: string = page.data[0].id;
    if (amount > 0) await send(LedgerRpc.credit, { accountId, amount, currency: 'USD', fromPurpose: 'CLEARING', entryId: id('fund') });
    return accountId;
  };

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestPlatform({ ACCOUNTS_RPC_PORT: String(port) });
    await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies(['USD', 'EUR']) } });
    client = new ServiceClient({ name: 'accounts', host: '127.0.0.1', port }, 10_000);
    const probe = await fundedAccount(0);
    const [row] = await t.platform.accounts.host.dataSource.query('SELECT platform_id FROM ledger_accounts WHERE account_id = $1', [probe]);
    caller = { platformId: row.platform_id, mode: 'SANDBOX', clientId: 'payments', permissions: ['TRANSACT'] };
  });
  afterEach(async () => expect(await checkLedger(t.platform.accounts.host.dataSource, t.platform.accounts.host.store)).toEqual([]));
  afterAll(async () => {
    await client?.close();
    await t?.stop();
  });

  it('holds, captures part of the hold to CLEARING, and a replay of every command changes nothing', async () => {
    const accountId = await fundedAccount(0);
    const credit: CreditRequest = { accountId, amount: 10_000, currency: 'USD', fromPurpose: 'CLEARING', entryId: id('in') };
    expect(await send(LedgerRpc.credit, credit)).toMatchObject({ accountId, balance: 10_000, totalBalance: 10_000 });
    expect(await send(LedgerRpc.credit, credit)).toMatchObject({ balance: 10_000, totalBalance: 10_000 });

    const hold: PlaceHoldRequest = { accountId, holdId: id('Transaction:h'), amount: 6_000, currency: 'USD' };
    expect(await send(LedgerRpc.placeHold, hold)).toMatchObject({ balance: 4_000, totalBalance: 10_000 });
    expect(await send(LedgerRpc.placeHold, hold)).toMatchObject({ balance: 4_000, totalBalance: 10_000 });

    const capture: CaptureHoldRequest = { accountId, holdId: hold.holdId, amount: 2_500, toPurpose: 'CLEARING', entryId: id('out') };
    expect(await send(LedgerRpc.captureHold, capture)).toMatchObject({ balance: 7_500, totalBalance: 7_500 });
    expect(await send(LedgerRpc.captureHold, capture)).toMatchObject({ balance: 7_500, totalBalance: 7_500 });
    expect(await failure(LedgerRpc.captureHold, { ...capture, entryId: id('out') })).toEqual({ status: 409, code: 'HOLD_ALREADY_CLOSED' });
    expect(await failure(LedgerRpc.captureHold, { ...capture, amount: 2_400 })).toEqual({ status: 409, code: 'CONFLICT' });

    // One balance-changed event per effective command, none for the replays; the last one carries the balances.
    const changes = (await eventsOf(accountId)).filter((e) => e.type === 'InternalAccountBalanceChanged.v1');
    expect(changes.map((e) => (e.data as { cause: { type: string } }).cause.type)).toEqual(['POSTING', 'HOLD_PLACED', 'POSTING']);
    expect(changes[2].data).toMatchObject({ accountId, currency: 'USD', mode: 'SANDBOX', balance: 7_500, totalBalance: 7_500, previousBalance: 4_000, previousTotalBalance: 10_000 });
    expect((await t.call('GET', `/customers/internal-accounts?currency=USD&limit=100`)).body.data.find((a: { id: string }) => a.id === accountId)).toMatchObject({ balance: { amount: 7_500 }, totalBalance: { amount: 7_500 } });
  });

  it('captures a hold into another account of the platform, and transfers between accounts', async () => {
    const from = await fundedAccount(3_000);
    const to = await fundedAccount(0);
    const holdId = id('h');
    await send(LedgerRpc.placeHold, { accountId: from, holdId, amount: 1_000, currency: 'USD' });
    expect(await send(LedgerRpc.captureHold, { accountId: from, holdId, amount: 1_000, toAccountId: to, entryId: id('p2p') })).toMatchObject({ balance: 2_000, totalBalance: 2_000 });
    const entryId = id('t');
    const transfer: TransferRequest = { entryId, legs: [{ accountId: from, currency: 'USD', amount: -500 }, { accountId: to, currency: 'USD', amount: 450 }, { purpose: 'FEES', currency: 'USD', amount: 50 }] };
    const result = await send(LedgerRpc.transfer, transfer);
    expect(result.entryId).toBe(entryId);
    expect(result.balances.find((b) => b.accountId === to)).toMatchObject({ balance: 1_450 });
    expect(await send(LedgerRpc.transfer, transfer)).toEqual(result);
    expect(await failure(LedgerRpc.transfer, { ...transfer, legs: [transfer.legs[0], { accountId: to, currency: 'USD', amount: 500 }] })).toEqual({ status: 409, code: 'CONFLICT' });
  });

  it('releases a hold; a replayed release changes nothing and the hold cannot be captured afterwards', async () => {
    const accountId = await fundedAccount(1_000);
    const holdId = id('h');
    expect(await send(LedgerRpc.placeHold, { accountId, holdId, amount: 700, currency: 'USD' })).toMatchObject({ balance: 300, totalBalance: 1_000 });
    expect(await send(LedgerRpc.releaseHold, { accountId, holdId })).toMatchObject({ balance: 1_000, totalBalance: 1_000 });
    expect(await send(LedgerRpc.releaseHold, { accountId, holdId })).toMatchObject({ balance: 1_000, totalBalance: 1_000 });
    expect(await failure(LedgerRpc.captureHold, { accountId, holdId, amount: 700, toPurpose: 'CLEARING', entryId: id('e') })).toEqual({ status: 409, code: 'HOLD_ALREADY_CLOSED' });
    expect(await failure(LedgerRpc.releaseHold, { accountId, holdId: 'never-placed' })).toEqual({ status: 404, code: 'HOLD_NOT_FOUND' });
    expect(await failure(LedgerRpc.placeHold, { accountId, holdId, amount: 700, currency: 'USD' })).toEqual({ status: 409, code: 'HOLD_ALREADY_CLOSED' });
  });

  it('expires a hold by its durable timer; a hold captured before its expiry stays captured when the timer fires', async () => {
    const accountId = await fundedAccount(5_000);
    const expiring = id('h');
    expect(await send(LedgerRpc.placeHold, { accountId, holdId: expiring, amount: 1_000, currency: 'USD', expiresInMs: 300 })).toMatchObject({ balance: 4_000 });
    const captured = id('h');
    await send(LedgerRpc.placeHold, { accountId, holdId: captured, amount: 2_000, currency: 'USD', expiresInMs: 1_000 });
    expect(await send(LedgerRpc.captureHold, { accountId, holdId: captured, amount: 2_000, toPurpose: 'CLEARING', entryId: id('e') })).toMatchObject({ balance: 2_000, totalBalance: 3_000 });

    await eventually(async () => (await timerOf(expiring))?.fired_at && (await timerOf(captured))?.fired_at, { what: 'both expiry timers fired' });
    const closed = (await eventsOf(accountId)).filter((e) => e.type === 'HoldClosed.v1').map((e) => e.data as { holdId: string; outcome: string });
    expect(closed).toHaveLength(2);
    expect(closed).toEqual(expect.arrayContaining([expect.objectContaining({ holdId: captured, outcome: 'CAPTURED' }), expect.objectContaining({ holdId: expiring, outcome: 'EXPIRED' })]));
    expect(await send(LedgerRpc.releaseHold, { accountId, holdId: expiring })).toMatchObject({ balance: 3_000, totalBalance: 3_000 });
    expect(await failure(LedgerRpc.captureHold, { accountId, holdId: expiring, amount: 1, toPurpose: 'CLEARING', entryId: id('e') })).toEqual({ status: 409, code: 'HOLD_ALREADY_CLOSED' });
  });

  it('credits and reverses idempotently; an entry is reversed once', async () => {
    const accountId = await fundedAccount(0);
    const entryId = id('in');
    await send(LedgerRpc.credit, { accountId, amount: 800, currency: 'USD', fromPurpose: 'CLEARING', entryId });
    const reversal = { originalEntryId: entryId, reversalEntryId: id('rev') };
    const reversed = await send(LedgerRpc.reverse, reversal);
    expect(reversed).toEqual({ entryId: reversal.reversalEntryId, balances: [expect.objectContaining({ accountId, balance: 0, totalBalance: 0 })] });
    expect(await send(LedgerRpc.reverse, reversal)).toEqual(reversed);
    expect(await failure(LedgerRpc.reverse, { ...reversal, reversalEntryId: id('rev') })).toEqual({ status: 409, code: 'CONFLICT' });
    expect(await failure(LedgerRpc.reverse, { originalEntryId: 'no-such-entry', reversalEntryId: id('rev') })).toEqual({ status: 404, code: 'NOT_FOUND' });
  });

  it('never overdraws: holds and debits beyond the available balance are INSUFFICIENT_FUNDS', async () => {
    const accountId = await fundedAccount(1_000);
    await send(LedgerRpc.placeHold, { accountId, holdId: id('h'), amount: 600, currency: 'USD' });
    expect(await failure(LedgerRpc.placeHold, { accountId, holdId: id('h'), amount: 401, currency: 'USD' })).toEqual({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    const debit = { entryId: id('t'), legs: [{ accountId, currency: 'USD', amount: -401 }, { purpose: 'CLEARING', currency: 'USD', amount: 401 }] };
    expect(await failure(LedgerRpc.transfer, debit)).toEqual({ status: 400, code: 'INSUFFICIENT_FUNDS' });
    expect((await t.platform.accounts.host.dataSource.query('SELECT count(*)::int AS n FROM journal_postings WHERE entry_id = $1', [debit.entryId]))[0].n).toBe(0);
  });

  it('refuses accounts of another platform or mode (404), malformed bodies (400) and a wrong currency', async () => {
    const accountId = await fundedAccount(1_000);
    const other = await t.createTenant();
    const foreign: CallerContext = { ...caller, platformId: other.platformId! };
    const production: CallerContext = { ...caller, mode: 'PRODUCTION' };
    const hold = { accountId, holdId: id('h'), amount: 100, currency: 'USD' };
    for (const as of [foreign, production]) {
      expect(await failure(LedgerRpc.placeHold, hold, as)).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(await failure(LedgerRpc.releaseHold, { accountId, holdId: hold.holdId }, as)).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(await failure(LedgerRpc.credit, { accountId, amount: 1, currency: 'USD', fromPurpose: 'CLEARING', entryId: id('e') }, as)).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    await send(LedgerRpc.placeHold, hold);
    const mine = await fundedAccount(0);
    const theirs = { ...caller, platformId: other.platformId! };
    expect(await failure(LedgerRpc.captureHold, { accountId: mine, holdId: 'x', amount: 1, toPurpose: 'CLEARING', entryId: id('e') }, theirs)).toEqual({ status: 404, code: 'NOT_FOUND' });
    // A leg on someone else's account, or on a SYSTEM account named by its id, is not found and posts nothing.
    const theirAccount = (await t.platform.accounts.host.dataSource.query(`SELECT account_id FROM ledger_accounts WHERE platform_id = $1 AND owner <> 'SYSTEM' LIMIT 1`, [other.platformId]))[0]?.account_id ?? mine;
    const [system] = await t.platform.accounts.host.dataSource.query(`SELECT account_id FROM ledger_accounts WHERE platform_id = $1 AND mode = 'SANDBOX' AND owner = 'SYSTEM' LIMIT 1`, [caller.platformId]);
    for (const to of [theirAccount === mine ? 'InternalAccount:none' : theirAccount, system.account_id]) {
      const entryId = id('t');
      expect(await failure(LedgerRpc.transfer, { entryId, legs: [{ accountId, currency: 'USD', amount: -1 }, { accountId: to, currency: 'USD', amount: 1 }] })).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(await failure(LedgerRpc.captureHold, { accountId, holdId: hold.holdId, amount: 1, toAccountId: to, entryId })).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect((await t.platform.accounts.host.dataSource.query('SELECT count(*)::int AS n FROM journal_entries WHERE entry_id = $1', [entryId]))[0].n).toBe(0);
    }
    expect(await failure(LedgerRpc.transfer, { entryId: id('t'), legs: [{ accountId: mine, currency: 'USD', amount: -1 }, { accountId, currency: 'USD', amount: 1 }] }, theirs)).toEqual({ status: 404, code: 'NOT_FOUND' });

    const invalid = [
      [LedgerRpc.placeHold, { ...hold, amount: 0 }],
      [LedgerRpc.placeHold, { ...hold, amount: 1.5 }],
      [LedgerRpc.placeHold, { ...hold, holdId: undefined }],
      [LedgerRpc.placeHold, { ...hold, expiresInMs: -1 }],
      [LedgerRpc.captureHold, { accountId, holdId: hold.holdId, amount: 1, entryId: id('e') }],
      [LedgerRpc.captureHold, { accountId, holdId: hold.holdId, amount: 1, entryId: id('e'), toPurpose: 'CLEARING', toAccountId: mine }],
      [LedgerRpc.credit, { accountId, amount: 1, currency: 'USD', fromPurpose: 'NOWHERE', entryId: id('e') }],
      [LedgerRpc.transfer, { entryId: id('t'), legs: [{ accountId, currency: 'USD', amount: -1 }] }],
      [LedgerRpc.reverse, { originalEntryId: 'a', reversalEntryId: 'a' }],
      [LedgerRpc.releaseHold, null],
    ] as const;
    for (const [pattern, body] of invalid) expect({ pattern, ...(await failure(pattern, body)) }).toEqual({ pattern, status: 400, code: 'INVALID_INPUT' });
    expect(await failure(LedgerRpc.placeHold, { ...hold, holdId: id('h'), currency: 'EUR' })).toEqual({ status: 400, code: 'INVALID_CURRENCY' });
    expect(await failure(LedgerRpc.captureHold, { accountId, holdId: hold.holdId, amount: 101, toPurpose: 'CLEARING', entryId: id('e') })).toEqual({ status: 409, code: 'CAPTURE_EXCEEDS_HOLD' });
  });

  it('GET /discoveries: every institution without filters, filtered by country and currency, 400 on a malformed filter', async () => {
    const all = await t.call('GET', '/discoveries');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThan(150);
    expect(all.body.data[0]).toEqual({ bankName: expect.any(String), displayName: expect.any(String), country: expect.stringMatching(/^[A-Z]{2}$/), currency: expect.stringMatching(/^[A-Z]{3}$/) });
    const ph = (await t.call('GET', '/discoveries?country=PH')).body.data;
    expect(ph.length).toBeGreaterThanOrEqual(5);
    expect(ph.every((i: { country: string; currency: string }) => i.country === 'PH' && i.currency === 'PHP')).toBe(true);
    expect((await t.call('GET', '/discoveries?country=ph&currency=php')).body.data).toEqual(ph);
    expect((await t.call('GET', '/discoveries?currency=XOF')).body.data.map((i: { country: string }) => i.country)).toEqual(expect.arrayContaining(['SN', 'CI', 'BJ']));
    expect((await t.call('GET', '/discoveries?country=US&currency=EUR')).body).toEqual({ data: [] });
    for (const bad of ['country=USA', 'country=1A', 'currency=US', 'currency=EURO', 'currency=U$D']) {
      const res = await t.call('GET', `/discoveries?${bad}`);
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 400, code: 'INVALID_INPUT' });
    }
  });
});
