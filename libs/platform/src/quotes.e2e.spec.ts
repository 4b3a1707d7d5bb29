import { priceFxQuote } from '@payments/money';
import { feeSchedule, SandboxRateSource } from '@payments/quoting';
import { eventually } from '@payments/testing';
import { createExternalAccount } from './test-external-accounts';
import { internalAccountOf, usdAccount } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const QUOTE_TTL_MS = 2_000;
const config = (code: string, minAmount: number, maxAmount: number) => ({ currencyCode: code, minAmount, maxAmount, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

/** What the quote must say: priceFxQuote over the sandbox rate of the quote's creation time and the fee schedule. */
function expectedPricing(quote: Record<string, any>, side: 'SENDING' | 'RECEIVING', amount: number) {
  const from = quote.sendingCurrency.code;
  const to = quote.receivingCurrency.code;
  const rate = new SandboxRateSource().rate(from, to, quote.createdAt)!;
  const priced = priceFxQuote({ sendingCurrency: from, receivingCurrency: to, midRate: rate.midRate, sendingPerBtc: rate.sourcePerBtc, fees: feeSchedule(from), lockedCurrencySide: side, lockedCurrencyAmount: amount });
  if (!priced.ok) throw new Error(priced.error.message);
  const p = priced.value;
  return { totalSendingAmount: p.totalSendingAmount, totalReceivingAmount: p.totalReceivingAmount, exchangeRate: p.exchangeRate, feesIncluded: p.feesIncluded, platformFeesIncluded: p.platformFeesIncluded, rateDetails: p.rateDetails };
}

describe('quotes and exchange rates (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let usd: string;
  let eur: string;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.01', QUOTE_TTL_MS: String(QUOTE_TTL_MS) });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD', 100, 5_000_000), config('EUR', 1, 1_000_000_000)] } })).status).toBe(200);
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Quote' } })).body;
    usd = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'USD');
    eur = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'EUR');
  });
  afterAll(() => t?.stop());

  const quote = (source: string, destination: string, side: 'SENDING' | 'RECEIVING', amount: number, extra: Record<string, unknown> = {}, auth = t.tenant.sandbox) =>
    t.call('POST', '/quotes', { auth, body: { source: { sourceType: 'ACCOUNT', accountId: source }, destination: { destinationType: 'ACCOUNT', accountId: destination }, lockedCurrencySide: side, lockedCurrencyAmount: amount, ...extra } });

  it('quotes USD to EUR with the SENDING side locked: amounts, rate and fees agree with the pricing formula', async () => {
    const res = await quote(usd, eur, 'SENDING', 10_000, { description: 'Invoice 42' });
    expect(res.status).toBe(201);
    const q = res.body;
    expect(q).toMatchObject({
      id: expect.stringMatching(/^Quote:[0-9a-f-]{36}$/),
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { destinationType: 'ACCOUNT', accountId: eur },
      sendingCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
      receivingCurrency: { code: 'EUR', decimals: 2 },
      transactionId: expect.stringMatching(/^Transaction:[0-9a-f-]{36}$/),
      description: 'Invoice 42',
      ...expectedPricing(q, 'SENDING', 10_000),
    });
    expect(q.totalSendingAmount).toBe(10_000);
    expect(q.feesIncluded).toBe(75); // 50 bps of 10000 + 25 fixed
    expect(q.totalSendingAmount - q.feesIncluded).toBeGreaterThan(0);
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(QUOTE_TTL_MS);
    expect((await t.call('GET', `/quotes/${q.id}`)).body).toEqual(q);
  });

  it('locks the RECEIVING side: delivers at least the amount, priced by the same formula', async () => {
    const res = await quote(usd, eur, 'RECEIVING', 5_000);
    expect(res.status).toBe(201);
    expect(res.body.totalReceivingAmount).toBeGreaterThanOrEqual(5_000);
    expect(res.body).toMatchObject(expectedPricing(res.body, 'RECEIVING', 5_000));
  });

  it('quotes to an external account of another currency', async () => {
    const ngn = await createExternalAccount(t, t.tenant.sandbox);
    const res = await quote(usd, ngn, 'SENDING', 2_500);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ receivingCurrency: { code: 'NGN' }, ...expectedPricing(res.body, 'SENDING', 2_500) });
  });

  it('refuses same-currency quotes: those are transfers', async () => {
    const otherUsd = await usdAccount(t, t.tenant.sandbox);
    expect((await quote(usd, otherUsd, 'SENDING', 1_000)).body).toMatchObject({ status: 400, code: 'SAME_CURRENCY' });
  });

  it('enforces the platform min and max amounts of the sending currency', async () => {
    expect((await quote(usd, eur, 'SENDING', 50_000_000)).body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    expect((await quote(usd, eur, 'RECEIVING', 50_000_000)).body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    // The min comes from the PATCHed config (100), which reaches quoting through identity's event.
    await eventually(async () => (await quote(usd, eur, 'SENDING', 99)).body.code === 'AMOUNT_OUT_OF_RANGE', { what: 'min amount 100 applied' });
  });

  it('validates the request', async () => {
    expect((await quote(usd, eur, 'SENDING', 0)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await quote(usd, eur, 'SENDING', 1.5)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await quote(usd, eur, 'SIDEWAYS' as 'SENDING', 100)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const realtime = await t.call('POST', '/quotes', { body: { source: { sourceType: 'REALTIME_FUNDING', customerId: 'Customer:x', currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 } });
    expect(realtime.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND', details: { errors: [{ field: 'source.customerId' }] } });
    const mixed = await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT', accountId: usd, currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 } });
    expect(mixed.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'source.currency' }] } });
    const noAccount = await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT' }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100 } });
    expect(noAccount.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const ngn = await createExternalAccount(t, t.tenant.sandbox);
    expect((await quote(ngn, usd, 'SENDING', 1_000)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('another platform\'s accounts and quotes are a 404', async () => {
    const other = await t.createTenant('Quote stranger');
    const foreignUsd = await usdAccount(t, other.sandbox);
    expect((await quote(usd, foreignUsd, 'SENDING', 1_000)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await quote(foreignUsd, eur, 'SENDING', 1_000)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await quote(usd, 'InternalAccount:00000000-0000-7000-8000-000000000000', 'SENDING', 1_000)).body).toMatchObject({ status: 404 });
    const mine = (await quote(usd, eur, 'SENDING', 1_000)).body;
    expect((await t.call('GET', `/quotes/${mine.id}`, { auth: other.sandbox })).body).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
    expect((await t.call('GET', `/quotes/${mine.id}`, { auth: t.tenant.production })).body).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
    expect((await t.call('GET', '/quotes/Quote:nope')).body).toMatchObject({ status: 404, code: 'QUOTE_NOT_FOUND' });
  });

  it('expires an unexecuted quote at expiresAt (a durable timer)', async () => {
    const q = (await quote(usd, eur, 'SENDING', 1_000)).body;
    expect(q.status).toBe('PENDING');
    const expired = await eventually(async () => {
      const body = (await t.call('GET', `/quotes/${q.id}`)).body;
      return body.status === 'EXPIRED' ? body : undefined;
    }, { what: 'quote EXPIRED' });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(q.expiresAt));
    expect(expired).toEqual({ ...q, status: 'EXPIRED' });
  });

  it('serves exchange rates with fees and the end of the rate window', async () => {
    const res = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [r] = res.body.data;
    expect(r).toMatchObject({ sourceCurrency: { code: 'USD' }, destinationCurrency: { code: 'EUR' }, variableFeeRate: 0.5, fixedFee: 25, platformVariableFeeRate: 0, platformFixedFee: 0, counterpartyFixedFee: 0 });
    expect(r.rate).toBeCloseTo(0.92, 1);
    expect(r.inverseRate * r.rate).toBeCloseTo(1, 9);
    expect(Date.parse(r.expiresAt)).toBeGreaterThan(Date.now());
    const all = (await t.call('GET', '/exchange-rates?sourceCurrency=USD')).body.data;
    expect(all.map((x: { destinationCurrency: { code: string } }) => x.destinationCurrency.code)).toEqual(expect.arrayContaining(['EUR', 'MXN', 'BTC', 'USDC', 'USDT', 'USDB']));
    expect(all).toHaveLength(40);
    expect((await t.call('GET', '/exchange-rates?sourceCurrency=XYZ')).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=USD')).body).toEqual({ data: [] }); // no rate to itself
    // Without sourceCurrency (optional in the published API): from each configured currency (USD, EUR here).
    const pairs = (await t.call('GET', '/exchange-rates?destinationCurrency=EUR,USD,MXN')).body.data.map((x: { sourceCurrency: { code: string }; destinationCurrency: { code: string } }) => `${x.sourceCurrency.code}>${x.destinationCurrency.code}`);
    expect(pairs).toEqual(['USD>EUR', 'USD>MXN', 'EUR>USD', 'EUR>MXN']);
    expect((await t.call('GET', '/exchange-rates')).body.data).toHaveLength(2 * 40);
    expect((await t.call('GET', '/exchange-rates?sourceCurrency=usd')).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('adds the platform\'s fee configs to exchange rates and quotes (platformFeesIncluded); USD only; zero fees remove them', async () => {
    const fee = (variableFeeBps: number, amount: number, sourceCurrency = 'USD') => ({ feeType: 'CROSS_CURRENCY_TRANSACTION', sourceCurrency, variableFeeBps, fixedFee: { amount, currency: sourceCurrency } });
    const tenant = await t.createTenant('Fee platform');
    const call = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: tenant.sandbox, body });
    expect((await call('PATCH', '/config', { supportedCurrencies: [config('USD', 100, 5_000_000), config('EUR', 1, 1_000_000_000)] })).status).toBe(200);
    const patched = await call('PATCH', '/config', { feeConfigs: [fee(100, 50)] });
    expect(patched.status).toBe(200);
    expect(patched.body.feeConfigs).toEqual([fee(100, 50)]);
    expect((await call('PATCH', '/config', { feeConfigs: [fee(100, 50, 'EUR')] })).body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
    expect((await call('PATCH', '/config', { feeConfigs: [{ ...fee(100, 50), fixedFee: { amount: 50, currency: 'EUR' } }] })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await call('PATCH', '/config', { feeConfigs: [fee(10_001, 0)] })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    const rate = await eventually(async () => {
      const [r] = (await call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR')).body.data;
      return r.platformFixedFee === 50 ? r : undefined;
    }, { what: 'platform fees in exchange rates' });
    expect(rate).toMatchObject({ variableFeeRate: 1.5, fixedFee: 75, platformVariableFeeRate: 1, platformFixedFee: 50 });
    const customer = (await call('POST', '/customers', { customerType: 'INDIVIDUAL', fullName: 'Fee Payer' })).body;
    const from = await internalAccountOf(t, tenant.sandbox, customer.id, 'USD');
    const to = await internalAccountOf(t, tenant.sandbox, customer.id, 'EUR');
    const q = (await call('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 })).body;
    // 10000: service 50 bps (50) + 25 fixed; platform 100 bps (100) + 50 fixed.
    expect(q).toMatchObject({ feesIncluded: 225, platformFeesIncluded: 150 });
    // The published platformFeeOverride replaces the configured fee for one quote (USD source, fee in USD).
    const body = (override: unknown) => ({ source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, platformFeeOverride: override });
    const overridden = (await call('POST', '/quotes', body({ platformFixedFee: { amount: 10, currency: 'USD' }, platformVariableFeeBps: 30 }))).body;
    expect(overridden).toMatchObject({ feesIncluded: 115, platformFeesIncluded: 40 }); // service 75 + platform 30 bps (30) + 10
    expect((await call('POST', '/quotes', body({ platformFixedFee: { amount: 10, currency: 'EUR' }, platformVariableFeeBps: 30 }))).body).toMatchObject({ status: 400, details: { errors: [{ field: 'platformFeeOverride.platformFixedFee.currency' }] } });
    expect((await call('POST', '/quotes', body({ platformFixedFee: { amount: 10, currency: 'USD' }, platformVariableFeeBps: 10_001 }))).status).toBe(400);
    const fromEur = (await call('POST', '/quotes', { ...body({ platformFixedFee: { amount: 10, currency: 'EUR' }, platformVariableFeeBps: 30 }), source: { sourceType: 'ACCOUNT', accountId: to }, destination: { destinationType: 'ACCOUNT', accountId: from } })).body;
    expect(fromEur).toMatchObject({ status: 400, details: { errors: [{ field: 'platformFeeOverride' }] } });
    expect((await call('PATCH', '/config', { feeConfigs: [fee(0, 0)] })).body.feeConfigs).toEqual([]);
    // Another platform never sees these fees.
    expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR')).body.data[0].platformFixedFee).toBe(0);
  });
});
