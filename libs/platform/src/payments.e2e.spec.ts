import { balances, expectLedgerClean, payer, systemBalance, untilTransaction } from './test-payments';
import { startTestPlatform, TestPlatform } from './test-platform';

const FUNDING = 100_000;
const AMOUNT = 1_000;
const terminal = (tx: Record<string, any>) => tx.status === 'COMPLETED' || tx.status === 'FAILED';

describe('same-currency transfers through the gateway: every sandbox suffix moves money exactly as the rail says', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    // 100 parallel holds on one account queue behind accounts' per-account lock (~65 ms each here): a 30 s RPC deadline.
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
  });
  afterAll(() => t?.stop());

  const out = (source: string, destination: string, amount = AMOUNT, headers: Record<string, string> = {}) =>
    t.call('POST', '/transfer-out', { body: { source: { accountId: source }, destination: { accountId: destination }, amount }, headers });
  const pull = (source: string, destination: string, amount = AMOUNT) => t.call('POST', '/transfer-in', { body: { source: { accountId: source }, destination: { accountId: destination }, amount } });

  // suffix → [final status, failureReason (absent when none), money the customer lost in the end]
  const outcomes: [string, string, string | undefined, number][] = [
    ['789', 'COMPLETED', undefined, AMOUNT],
    ['002', 'FAILED', 'QUOTE_EXECUTION_FAILED', 0],
    ['003', 'COMPLETED', undefined, AMOUNT],
    ['004', 'FAILED', 'ACCOUNT_CANNOT_RECEIVE', 0],
    ['005', 'FAILED', 'PAYOUT_RETURNED', 0],
    ['006', 'FAILED', 'QUOTE_EXECUTION_FAILED', 0],
    ['007', 'FAILED', 'QUOTE_EXECUTION_FAILED', AMOUNT],
  ];

  it.each(outcomes)('transfer-out to an account ending %s ends %s (%s)', async (suffix, status, reason, lost) => {
    const p = await payer(t, suffix, FUNDING);
    const suspenseBefore = await systemBalance(t, 'SUSPENSE', 'USD').catch(() => 0);
    const res = await out(p.internal, p.external);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^Transaction:/), type: 'OUTGOING', direction: 'DEBIT', status: 'PROCESSING', customerId: p.customerId, sentAmount: { amount: AMOUNT, currency: { code: 'USD' } }, paymentRail: 'ACH', railSelectionMode: 'AUTO' });
    expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING - AMOUNT, totalBalance: FUNDING }); // held, not yet debited
    // 005 completes first, then the bank returns it.
    const done = await untilTransaction(t, res.body.id, (tx) => tx.status === status && (suffix !== '005' || tx.failureReason === 'PAYOUT_RETURNED'));
    expect(done.failureReason).toBe(reason);
    expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING - lost, totalBalance: FUNDING - lost });
    if (suffix === '006') expect(done.refund).toMatchObject({ status: 'COMPLETED', reason: 'USER_CANCELLATION' });
    if (suffix === '007') {
      expect(done.refund).toMatchObject({ status: 'FAILED' });
      expect(done.unresolvedFunds).toMatchObject({ amount: AMOUNT, currency: { code: 'USD' }, ledgerPurpose: 'SUSPENSE' });
      expect((await systemBalance(t, 'SUSPENSE', 'USD')) - suspenseBefore).toBe(AMOUNT);
    }
    if (status === 'COMPLETED') expect(done.settledAt).toEqual(expect.any(String));
    await expectLedgerClean(t);
  });

  it('fails a transfer-out beyond the available balance at once: 201 FAILED (failureDetail INSUFFICIENT_FUNDS), nothing held', async () => {
    const p = await payer(t, '789', 500);
    const res = await out(p.internal, p.external, 501);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
    expect(await balances(t, p.customerId)).toEqual({ balance: 500, totalBalance: 500 });
    await expectLedgerClean(t);
  });

  const pulls: [string, string, string | undefined, number][] = [
    ['789', 'COMPLETED', undefined, AMOUNT],
    ['002', 'FAILED', 'COLLECTION_FAILED', 0], // failureDetail INSUFFICIENT_FUNDS
    ['003', 'FAILED', 'COLLECTION_FAILED', 0], // failureDetail ACCOUNT_CLOSED
    ['004', 'FAILED', 'COLLECTION_FAILED', 0],
    ['005', 'FAILED', 'COLLECTION_FAILED', 0],
  ];

  it.each(pulls)('transfer-in from an account ending %s ends %s (%s)', async (suffix, status, reason, gained) => {
    const p = await payer(t, suffix, 0);
    const res = await pull(p.external, p.internal);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'INCOMING', direction: 'DEBIT', receivedAmount: { amount: AMOUNT, currency: { code: 'USD' } }, customerId: p.customerId });
    // 002 and 003 fail immediately; the others are PENDING until the pull settles.
    expect(res.body.status).toBe(['002', '003'].includes(suffix) ? 'FAILED' : 'PENDING');
    const done = await untilTransaction(t, res.body.id, terminal);
    expect(done.status).toBe(status);
    expect(done.failureReason).toBe(reason);
    expect(await balances(t, p.customerId)).toEqual({ balance: gained, totalBalance: gained });
    await expectLedgerClean(t);
  });

  it('refuses what cannot be a same-currency transfer, with clear 4xx codes', async () => {
    const p = await payer(t, '789', FUNDING);
    expect((await pull(p.internal, p.internal)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await out(p.internal, 'ExternalAccount:0190f5a0-0000-7000-8000-000000000000')).body).toMatchObject({ status: 404 });
    expect((await out(p.internal, p.external, 0)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const ngn = await t.call('POST', '/customers/external-accounts', { body: { customerId: p.customerId, currency: 'NGN', accountInfo: { accountType: 'NGN_ACCOUNT', accountNumber: '0123456789', bankName: 'ACCESS_BANK', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Obi' } } } });
    expect((await out(p.internal, ngn.body.id)).body).toMatchObject({ status: 400, code: 'CURRENCY_MISMATCH' });
    expect((await t.call('POST', '/transfer-out', { auth: t.tenant.production, body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 1 } })).body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING, totalBalance: FUNDING });
  });

  it('replays a transfer-out with the same Idempotency-Key: one transaction, one hold', async () => {
    const p = await payer(t, '789', FUNDING);
    const first = await out(p.internal, p.external, AMOUNT, { 'Idempotency-Key': 'pay-once' });
    const again = await out(p.internal, p.external, AMOUNT, { 'Idempotency-Key': 'pay-once' });
    expect(again.body.id).toBe(first.body.id);
    await untilTransaction(t, first.body.id, terminal);
    expect(await balances(t, p.customerId)).toEqual({ balance: FUNDING - AMOUNT, totalBalance: FUNDING - AMOUNT });
  });

  it('100 parallel transfer-outs against a balance covering 50: exactly 50 complete, the rest fail for insufficient funds', async () => {
    const p = await payer(t, '789', 50 * 100);
    const results = await Promise.all(Array.from({ length: 100 }, () => out(p.internal, p.external, 100)));
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(201));
    expect(results.filter((r) => r.body.status === 'FAILED' && r.body.failureDetail === 'INSUFFICIENT_FUNDS')).toHaveLength(50);
    const done = await Promise.all(results.map((r) => untilTransaction(t, r.body.id, terminal, 60_000)));
    expect(done.filter((tx) => tx.status === 'COMPLETED')).toHaveLength(50);
    expect(await balances(t, p.customerId)).toEqual({ balance: 0, totalBalance: 0 });
    await expectLedgerClean(t);
  });

  it('lists transactions with filters, both orders and pages; another tenant gets 404', async () => {
    const p = await payer(t, '789', FUNDING);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await out(p.internal, p.external, 10 + i)).body.id);
    await Promise.all(ids.map((id) => untilTransaction(t, id, terminal)));
    const q = `/transactions?accountId=${encodeURIComponent(p.internal)}`;
    const desc = await t.call('GET', `${q}&limit=2`);
    expect(desc.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(desc.body.data.map((x: any) => x.id)).toEqual([ids[2], ids[1]]);
    const next = await t.call('GET', `${q}&limit=2&cursor=${desc.body.nextCursor}`);
    expect(next.body.data.map((x: any) => x.id)).toEqual([ids[0]]);
    expect((await t.call('GET', `${q}&sortOrder=asc`)).body.data.map((x: any) => x.id)).toEqual(ids);
    expect((await t.call('GET', `/transactions?customerId=${encodeURIComponent(p.customerId)}&type=INCOMING`)).body.totalCount).toBe(0);
    expect((await t.call('GET', `/transactions?customerId=${encodeURIComponent(p.customerId)}&status=COMPLETED&type=OUTGOING`)).body.totalCount).toBe(3);
    expect((await t.call('GET', `${q}&endDate=2000-01-01T00:00:00Z`)).body.totalCount).toBe(0);
    expect((await t.call('GET', `/transactions?status=DONE`)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const other = await t.createTenant();
    expect((await t.call('GET', `/transactions/${ids[0]}`, { auth: other.sandbox })).body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
    expect((await t.call('GET', `/transactions/${ids[0]}`, { auth: t.tenant.production })).body).toMatchObject({ status: 404, code: 'TRANSACTION_NOT_FOUND' });
    expect((await t.call('GET', q, { auth: other.sandbox })).body.totalCount).toBe(0);
  });
});
