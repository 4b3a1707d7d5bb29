import { eventually } from '@payments/testing';
import { ngnAccount, untilStatus } from './test-external-accounts';
import { expectLedgerClean, systemBalance, untilTransaction } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const config = (code: string) => ({ currencyCode: code, minAmount: 100, maxAmount: 100_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const FUNDING = 1_000_000;

/** Quote execution end to end: quoting hands off, payments settles through the ledger, quoting closes the quote. */
describe('quote execution saga (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD'), config('EUR'), config('NGN')] } })).status).toBe(200);
  });
  afterAll(() => t?.stop());

  /** A US customer with funded USD and empty EUR internal accounts. */
  async function holder(): Promise<{ customerId: string; usd: string; eur: string }> {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Fx Holder', region: 'US' } })).body.id;
    const usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    const eur = await internalAccountOf(t, t.tenant.sandbox, customerId, 'EUR');
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: FUNDING } })).status).toBe(200);
    return { customerId, usd, eur };
  }
  const balanceOf = async (accountId: string, customerId: string, currency: string) =>
    (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${currency}`)).body.data.find((a: { id: string }) => a.id === accountId);
  const untilQuote = (id: string, status: string) =>
    eventually(async () => {
      const body = (await t.call('GET', `/quotes/${id}`)).body;
      return body.status === status ? body : undefined;
    }, { what: `quote ${id} ${status}`, timeoutMs: 20_000 });
  const quote = (source: Record<string, unknown>, destination: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    t.call('POST', '/quotes', { body: { source, destination, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, ...extra } });

  it('USD to the customer\'s EUR account: COMPLETED, the amounts move exactly and fees reach the fee account', async () => {
    const h = await holder();
    const customer = (await t.call('GET', `/customers/${h.customerId}`)).body;
    // payments learns customers from identity's events; wait until it has this one (it names platformCustomerId).
    await eventually(async () => ((await t.platform.payments.host.dataSource.query(`SELECT 1 FROM customers WHERE customer_id = $1`, [h.customerId])).length ? true : undefined), { what: 'payments knows the customer' });
    const feesBefore = await systemBalance(t, 'FEES', 'USD');
    const q = (await quote({ sourceType: 'ACCOUNT', accountId: h.usd }, { destinationType: 'ACCOUNT', accountId: h.eur })).body;
    expect((await t.call('POST', `/quotes/${q.id}/execute`)).body.status).toBe('PROCESSING');
    const tx = await untilTransaction(t, q.transactionId, (x) => x.status === 'COMPLETED');
    expect(tx).toMatchObject({ id: q.transactionId, type: 'OUTGOING', quoteId: q.id, customerId: h.customerId, platformCustomerId: customer.platformCustomerId, fees: q.feesIncluded, sentAmount: { amount: q.totalSendingAmount }, receivedAmount: { amount: q.totalReceivingAmount } });
    await untilQuote(q.id, 'COMPLETED');
    expect((await balanceOf(h.usd, h.customerId, 'USD')).balance.amount).toBe(FUNDING - q.totalSendingAmount);
    expect((await balanceOf(h.eur, h.customerId, 'EUR')).balance.amount).toBe(q.totalReceivingAmount);
    expect((await systemBalance(t, 'FEES', 'USD')) - feesBefore).toBe(q.feesIncluded - q.platformFeesIncluded);
    await expectLedgerClean(t);
  });

  it('a quote beyond the balance fails the transaction and the quote; nothing moves', async () => {
    const h = await holder();
    const q = (await quote({ sourceType: 'ACCOUNT', accountId: h.usd }, { destinationType: 'ACCOUNT', accountId: h.eur }, { lockedCurrencyAmount: FUNDING + 1, immediatelyExecute: true })).body;
    expect(q.status).toBe('PROCESSING');
    const tx = await untilTransaction(t, q.transactionId, (x) => x.status === 'FAILED');
    expect(tx).toMatchObject({ failureReason: 'QUOTE_EXECUTION_FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
    await untilQuote(q.id, 'FAILED');
    expect((await balanceOf(h.usd, h.customerId, 'USD')).balance.amount).toBe(FUNDING);
    await expectLedgerClean(t);
  });

  // Quote destination suffixes: the NGN payout's account number ends in them.
  it.each([
    ['789', 'COMPLETED', 'COMPLETED', 'spent'],
    ['002', 'FAILED', 'FAILED', 'refunded'],
    ['003', 'COMPLETED', 'COMPLETED', 'spent'],
    ['004', 'FAILED', 'FAILED', 'refunded'],
    ['005', 'FAILED', 'FAILED', 'refunded'],
    ['006', 'FAILED', 'FAILED', 'refunded'],
    ['007', 'FAILED', 'FAILED', 'spent'],
  ])('payout to an account ending %s: transaction %s, quote %s, funds %s', async (suffix, txStatus, quoteStatus, funds) => {
    const h = await holder();
    const created = await t.call('POST', '/customers/external-accounts', { body: { customerId: h.customerId, ...ngnAccount(suffix) } });
    expect(created.status).toBe(201);
    await untilStatus(t, t.tenant.sandbox, created.body.id, 'ACTIVE');
    const q = (await quote({ sourceType: 'ACCOUNT', accountId: h.usd }, { destinationType: 'ACCOUNT', accountId: created.body.id }, { immediatelyExecute: true })).body;
    // 005 completes first, then the bank returns it.
    const tx = await untilTransaction(t, q.transactionId, (x) => x.status === txStatus && (suffix !== '005' || x.failureReason === 'PAYOUT_RETURNED'));
    await untilQuote(q.id, quoteStatus);
    const usd = (await balanceOf(h.usd, h.customerId, 'USD')).balance.amount;
    expect(usd).toBe(funds === 'spent' ? FUNDING - q.totalSendingAmount : FUNDING);
    if (suffix === '007') expect(tx.unresolvedFunds).toMatchObject({ amount: q.totalReceivingAmount, ledgerPurpose: 'SUSPENSE' });
    await expectLedgerClean(t);
  });

  it('a REALTIME_FUNDING quote executes when /sandbox/send delivers its funds', async () => {
    const h = await holder();
    const q = (await quote({ sourceType: 'REALTIME_FUNDING', customerId: h.customerId, currency: 'USD' }, { destinationType: 'ACCOUNT', accountId: h.eur })).body;
    expect(q.paymentInstructions).toHaveLength(1);
    expect((await t.call('POST', '/sandbox/send', { body: { quoteId: q.id, currencyCode: 'EUR' } })).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect((await t.call('POST', '/sandbox/send', { body: { quoteId: q.id, currencyCode: 'USD', currencyAmount: 1 } })).body).toMatchObject({ status: 400, code: 'FUNDING_AMOUNT_MISMATCH' });
    expect((await t.call('POST', '/sandbox/send', { auth: t.tenant.production, body: { quoteId: q.id, currencyCode: 'USD' } })).status).toBe(404);
    const sent = await t.call('POST', '/sandbox/send', { body: { quoteId: q.id, currencyCode: 'USD' } });
    expect(sent.status).toBeLessThan(300);
    expect(sent.body).toMatchObject({ id: q.transactionId, quoteId: q.id, source: { sourceType: 'REALTIME_FUNDING' } });
    expect((await t.call('POST', '/sandbox/send', { body: { quoteId: q.id, currencyCode: 'USD' } })).body).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    await untilTransaction(t, q.transactionId, (x) => x.status === 'COMPLETED');
    await untilQuote(q.id, 'COMPLETED');
    expect((await balanceOf(h.eur, h.customerId, 'EUR')).balance.amount).toBe(q.totalReceivingAmount);
    expect((await balanceOf(h.usd, h.customerId, 'USD')).balance.amount).toBe(FUNDING); // paid from outside, not from the account
    await expectLedgerClean(t);
  });

  it('UMA destinations: the sandbox receivers complete, fail compliance (refunded), or stay pending', async () => {
    const h = await holder();
    const toUma = async (address: string) => {
      const lookup = (await t.call('GET', `/receiver/uma/${encodeURIComponent(address)}?customerId=${h.customerId}`)).body;
      const source = address.endsWith('.usd@sandbox.uma.money') ? { sourceType: 'ACCOUNT', accountId: h.eur } : { sourceType: 'ACCOUNT', accountId: h.usd };
      return (await quote(source, { destinationType: 'UMA_ADDRESS', umaAddress: address }, { lookupId: lookup.lookupId, immediatelyExecute: true, lockedCurrencyAmount: 1_000 })).body;
    };
    const ok = await toUma('$success.eur@sandbox.uma.money');
    await untilQuote(ok.id, 'COMPLETED');
    // EUR funds for the USD receivers come from a first conversion.
    expect((await t.call('POST', `/sandbox/internal-accounts/${h.eur}/fund`, { body: { amount: 100_000 } })).status).toBe(200);
    const refused = await toUma('$fail.compliance.usd@sandbox.uma.money');
    const failed = await untilTransaction(t, refused.transactionId, (x) => x.status === 'FAILED');
    expect(failed.failureReason).toBe('COMPLIANCE_REJECTED');
    await untilQuote(refused.id, 'FAILED');
    const pending = await toUma('$pending.long.usd@sandbox.uma.money');
    // Payments creates the transaction when QuoteExecuted.v1 reaches it (a bus hop: slower on a loaded machine); then it stays PROCESSING.
    await untilTransaction(t, pending.transactionId, () => true);
    await new Promise((r) => setTimeout(r, 500));
    expect((await t.call('GET', `/transactions/${pending.transactionId}`)).body.status).toBe('PROCESSING');
    expect((await t.call('GET', `/quotes/${pending.id}`)).body.status).toBe('PROCESSING');
    await expectLedgerClean(t);
  });
});
