import { v7 as uuidv7 } from 'uuid';
import { currencyObject } from '@payments/money';
import { expectLedgerClean, payer, untilTransaction } from './test-payments';
import { startTestPlatform, TestPlatform } from './test-platform';

interface Posting {
  entryId: string;
  accountId: string;
  amount: { amount: number; currency: { code: string; decimals: number } };
  kind: string;
  createdAt: string;
}

/** Per currency, what the postings sum to: a balanced ledger answers 0 for each. */
const sums = (postings: Posting[]) =>
  postings.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.amount.currency.code]: (acc[p.amount.currency.code] ?? 0) + p.amount.amount }), {});

describe('GET /transactions/{id}/ledger-postings: the ledger of one transaction, from the accounts service through payments', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    // The sandbox rail's 2 s and 30 s become 20 and 300 ms.
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01' });
  });
  afterAll(() => t?.stop());

  const transferOut = async (suffix: string, amount: number) => {
    const p = await payer(t, suffix, 10_000);
    const res = await t.call('POST', '/transfer-out', { body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount } });
    expect(res.status).toBe(201);
    return { ...p, transactionId: res.body.id as string };
  };
  const ledgerOf = (transactionId: string, auth?: string) => t.call('GET', `/transactions/${transactionId}/ledger-postings`, auth ? { auth } : {});

  it("shows a completed transfer-out's payout: the customer's account debited, a system account credited, balanced", async () => {
    const p = await transferOut('123', 2_500);
    await untilTransaction(t, p.transactionId, (tx) => tx.status === 'COMPLETED');
    const res = await ledgerOf(p.transactionId);
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const postings: Posting[] = res.body.data;
    expect(postings).toHaveLength(2);
    expect(sums(postings)).toEqual({ USD: 0 });
    expect(postings).toContainEqual({
      entryId: `${p.transactionId}/payout`,
      accountId: p.internal,
      amount: { amount: -2_500, currency: currencyObject('USD') },
      kind: 'PAYMENT_PAYOUT',
      createdAt: expect.any(String),
    });
    const credit = postings.find((x) => x.accountId !== p.internal)!;
    expect(credit).toMatchObject({ entryId: `${p.transactionId}/payout`, amount: { amount: 2_500 }, kind: 'PAYMENT_PAYOUT' });
    expect(credit.accountId).toMatch(/^SystemAccount:/); // the platform's clearing, as the ledger names it
    expect(res.body.holds).toEqual([{ holdId: `${p.transactionId}/hold`, accountId: p.internal, amount: { amount: 2_500, currency: currencyObject('USD') }, status: 'CAPTURED', createdAt: expect.any(String), closedAt: expect.any(String) }]);
  });

  it('shows nothing posted for a payout the rail failed (002): its hold released, no entry', async () => {
    const p = await transferOut('002', 1_000);
    await untilTransaction(t, p.transactionId, (tx) => tx.status === 'FAILED');
    const res = await ledgerOf(p.transactionId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [],
      holds: [{ holdId: `${p.transactionId}/hold`, accountId: p.internal, amount: { amount: 1_000, currency: currencyObject('USD') }, status: 'RELEASED', createdAt: expect.any(String), closedAt: expect.any(String) }],
      hasMore: false,
    });
  });

  it('shows a returned payout (005) with its reversal: the two entries cancel out, in creation order', async () => {
    const p = await transferOut('005', 700);
    await untilTransaction(t, p.transactionId, (tx) => tx.status === 'FAILED' && tx.failureReason === 'PAYOUT_RETURNED');
    const postings: Posting[] = (await ledgerOf(p.transactionId)).body.data;
    // Creation order: the payout's two legs, then its reversal's (within an entry, by account id).
    const legs = (entryId: string, customer: number, kind: string) =>
      [{ entryId, accountId: p.internal, amount: customer, kind }, { entryId, accountId: 'SystemAccount:', amount: -customer, kind }].sort((a, b) => (a.accountId < b.accountId ? -1 : 1));
    expect(postings.map((x) => ({ entryId: x.entryId, accountId: x.accountId.startsWith('SystemAccount:') ? 'SystemAccount:' : x.accountId, amount: x.amount.amount, kind: x.kind }))).toEqual([
      ...legs(`${p.transactionId}/payout`, -700, 'PAYMENT_PAYOUT'),
      ...legs(`${p.transactionId}/payout/reversal`, 700, 'REVERSAL'),
    ]);
    const byAccount = postings.reduce<Record<string, number>>((acc, x) => ({ ...acc, [x.accountId]: (acc[x.accountId] ?? 0) + x.amount.amount }), {});
    expect(Object.values(byAccount)).toEqual([0, 0]);
    await expectLedgerClean(t);
  });

  it("is 404 TRANSACTION_NOT_FOUND for another platform's transaction, production credentials, and an unknown or malformed id", async () => {
    const p = await transferOut('123', 100);
    const other = await t.createTenant('Ledger stranger');
    for (const auth of [other.sandbox, t.tenant.production, other.production]) {
      const res = await ledgerOf(p.transactionId, auth);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('TRANSACTION_NOT_FOUND');
    }
    for (const id of [`Transaction:${uuidv7()}`, 'not-a-transaction']) {
      const res = await ledgerOf(id);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('TRANSACTION_NOT_FOUND');
    }
  });
});
