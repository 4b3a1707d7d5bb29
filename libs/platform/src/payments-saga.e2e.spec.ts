import { v7 as uuidv7 } from 'uuid';
import { Quote, QUOTE_EXECUTED_EVENT, QuoteExecutedData } from '@payments/contracts';
import { EventEnvelope } from '@payments/eventsourcing';
import { serviceTopic } from '@payments/messaging';
import { currencyObject } from '@payments/money';
import { internalAccountOf } from './test-quotes';
import { balances, expectLedgerClean, payer, untilTransaction } from './test-payments';
import { startTestPlatform, TestPlatform } from './test-platform';

const config = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

describe('payments saga: durable across a restart, and driven by quoting\'s QuoteExecuted.v1', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    // 003 completes after 6 min × 0.01 = 3.6 s: long enough to stop the platform while its timer is pending.
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD'), config('EUR')] } })).status).toBe(200);
  });
  afterAll(() => t?.stop());

  it('finishes a payout whose timer was pending when the service stopped, with one effect', async () => {
    const p = await payer(t, '003', 10_000);
    const res = await t.call('POST', '/transfer-out', { body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 2_500 } });
    expect(res.body).toMatchObject({ status: 'PROCESSING', settlementTimelineSeconds: 4 });
    // The payout's rail timer is pending: the stop below lands mid-saga (a timer never fires while stopped).
    const pending = await t.platform.payments.host.dataSource.query(`SELECT count(*)::int AS n FROM timers WHERE stream_id = $1 AND fired_at IS NULL`, [res.body.id]);
    expect(pending[0].n).toBeGreaterThan(0);
    await t.restart(); // the payments service (and everything else) stops mid-saga and starts again on the same database
    await untilTransaction(t, res.body.id, (tx) => tx.status === 'COMPLETED');
    expect(await balances(t, p.customerId)).toEqual({ balance: 7_500, totalBalance: 7_500 });
    const postings = await t.platform.accounts.host.dataSource.query(`SELECT count(*)::int AS n FROM journal_postings WHERE entry_id LIKE $1`, [`${res.body.id}/%`]);
    expect(postings[0].n).toBe(2); // one payout entry of two legs
    const completions = await t.platform.payments.host.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'TransactionCompleted.v1'`, [res.body.id]);
    expect(completions[0].n).toBe(1);
    await expectLedgerClean(t);
  });

  it('leaves one pending timer per payout once its funds are held: the hold\'s safety net goes with the rail step', async () => {
    const p = await payer(t, '003', 10_000);
    const res = await t.call('POST', '/transfer-out', { body: { source: { accountId: p.internal }, destination: { accountId: p.external }, amount: 1_000 } });
    expect(res.body).toMatchObject({ status: 'PROCESSING' });
    const pending = await t.platform.payments.host.dataSource.query(`SELECT payload->>'step' AS step FROM timers WHERE stream_id = $1 AND fired_at IS NULL`, [res.body.id]);
    expect(pending).toEqual([{ step: 'rail' }]);
    await untilTransaction(t, res.body.id, (tx) => tx.status === 'COMPLETED');
  });

  it('executes a quote from QuoteExecuted.v1: holds, settles both currencies with fees, and a redelivery has one effect', async () => {
    const customerId = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Quote Payer' } })).body.id;
    const usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    const eur = await internalAccountOf(t, t.tenant.sandbox, customerId, 'EUR');
    await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 20_000 } });
    const [{ platform_id: platformId }] = await t.platform.accounts.host.dataSource.query(`SELECT platform_id FROM ledger_accounts WHERE account_id = $1`, [usd]);
    const now = new Date().toISOString();
    const quote: Quote = {
      id: `Quote:${uuidv7()}`, status: 'PROCESSING', createdAt: now, expiresAt: now, transactionId: `Transaction:${uuidv7()}`,
      source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur },
      sendingCurrency: currencyObject('USD'), receivingCurrency: currencyObject('EUR'),
      totalSendingAmount: 10_000, totalReceivingAmount: 9_131, exchangeRate: 1.0842, feesIncluded: 75, platformFeesIncluded: 5,
      rateDetails: { counterpartyMultiplier: 1, counterpartyFixedFee: 0, gridApiMultiplier: 1, gridApiFixedFee: 25, gridApiVariableFeeRate: 0.5, gridApiVariableFeeAmount: 50 },
    };
    const data: QuoteExecutedData = { quoteId: quote.id, quote, platformId, mode: 'SANDBOX', customerId, executedAt: now, funding: 'ACCOUNT' };
    const envelope: EventEnvelope = { eventId: uuidv7(), type: QUOTE_EXECUTED_EVENT, streamId: quote.id, streamVersion: 2, globalPosition: '1', occurredAt: now, platformId, data, metadata: {} };
    await t.platform.bus.publish(serviceTopic('quoting'), [envelope]);
    await t.platform.bus.publish(serviceTopic('quoting'), [envelope]); // at-least-once: the same event again
    const done = await untilTransaction(t, quote.transactionId, (tx) => tx.status === 'COMPLETED');
    expect(done).toMatchObject({ type: 'OUTGOING', quoteId: quote.id, fees: 75, platformFees: 5, sentAmount: { amount: 10_000 }, receivedAmount: { amount: 9_131, currency: { code: 'EUR' } } });
    const eurBalance = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=EUR`)).body.data[0].balance.amount;
    expect(eurBalance).toBe(9_131);
    expect(await balances(t, customerId)).toEqual({ balance: 10_000, totalBalance: 10_000 });
    await expectLedgerClean(t);
  });
});
