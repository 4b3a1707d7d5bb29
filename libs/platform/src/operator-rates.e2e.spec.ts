import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { Client } from 'pg';
import { priceFxQuote } from '@payments/money';
import { feeSchedule, SandboxRateSource } from '@payments/quoting';
import { eventually } from '@payments/testing';
import { approveInProduction, individualBody } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestOperator, TestPlatform } from './test-platform';

/** The ECB's daily document of Friday 8 July 2022, recorded (libs/quoting/src/rates/ecb/fixtures/README.md). */
const ECB_DOCUMENT = readFileSync(join(__dirname, '../../quoting/src/rates/ecb/fixtures/eurofxref-daily.2022-07-08.xml'));
/** 16:00 in Frankfurt (CEST) on the reference date. */
const ECB_PUBLISHED_AT = '2022-07-08T14:00:00.000Z';
const config = (code: string) => ({ currencyCode: code, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/**
 * What a quote of `amount` (SENDING) must say at `midRate`: in the sandbox with its built-in fees, in production with
 * none (no service fee schedule is configured in this suite: docs/quotes.md#fees-in-production).
 */
function pricedAt(midRate: string, from: string, to: string, amount: number, mode: 'SANDBOX' | 'PRODUCTION' = 'PRODUCTION') {
  const fees = mode === 'SANDBOX' ? feeSchedule(from) : feeSchedule(from, undefined, { variableFeeBps: 0, fixedFee: 0, schedule: null });
  const priced = priceFxQuote({ sendingCurrency: from, receivingCurrency: to, midRate, sendingPerBtc: '1', fees, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
  if (!priced.ok) throw new Error(priced.error.message);
  const p = priced.value;
  return { totalSendingAmount: p.totalSendingAmount, totalReceivingAmount: p.totalReceivingAmount, exchangeRate: p.exchangeRate, feesIncluded: p.feesIncluded };
}

/**
 * Rates in production (issue #28): no source is 501, an operator's rate prices quotes exactly and is recorded with
 * them, an expired one is 503, the ECB adapter prices cross rates from a loopback copy of the real document and keeps
 * it across a restart, and the sandbox keeps its synthetic table.
 */
describe('operator rates and production pricing (HTTP)', () => {
  let t: TestPlatform;
  let ecb: Server;
  let ecbServes = false;
  let ecbRequests = 0;
  let admin: TestOperator;
  let viewer: TestOperator;
  const accounts: Record<string, string> = {};
  let sandboxUsd: string;
  let sandboxEur: string;

  beforeAll(async () => {
    ecb = createServer((req, res) => {
      ecbRequests++;
      if (!ecbServes || req.url !== '/stats/eurofxref/eurofxref-daily.xml') return res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'text/xml' }).end(ECB_DOCUMENT);
    });
    await new Promise<void>((resolve) => ecb.listen(0, '127.0.0.1', resolve));
    const ecbUrl = `http://127.0.0.1:${(ecb.address() as { port: number }).port}/stats/eurofxref/eurofxref-daily.xml`;
    // The recorded document is from 2022: a maximum age of 20 years lets it price; RATE_STALE is shown by the operator table.
    t = await startTestPlatform({ ECB_RATES_URL: ecbUrl, ECB_REFRESH_SECONDS: '1', ECB_MAX_AGE_SECONDS: String(20 * 365 * 86_400) });
    admin = await t.createOperator('ADMIN', 'Ada Admin');
    viewer = await t.createOperator('VIEWER', 'Vic Viewer');
    const prod = t.tenant.production;
    expect((await t.call('PATCH', '/config', { auth: prod, body: { supportedCurrencies: ['USD', 'EUR', 'MXN', 'NGN'].map(config) } })).status).toBe(200);
    const created = await t.call('POST', '/customers', { auth: prod, body: individualBody('Prod Payer', { region: 'US', umaAddress: '$prod.payer@example.com' }) });
    expect(created.body).toMatchObject({ id: expect.any(String) });
    const customer = created.body;
    await approveInProduction(t, prod, customer.id); // production quotes only for APPROVED customers
    for (const code of ['USD', 'EUR', 'MXN', 'NGN']) accounts[code] = await internalAccountOf(t, prod, customer.id, code);
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: ['USD', 'EUR'].map(config) } })).status).toBe(200);
    const sandboxCreated = await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Sandy Box', region: 'US', umaAddress: '$sandy.box@example.com' } });
    expect(sandboxCreated.body).toMatchObject({ id: expect.any(String) });
    const sandboxCustomer = sandboxCreated.body;
    sandboxUsd = await internalAccountOf(t, t.tenant.sandbox, sandboxCustomer.id, 'USD');
    sandboxEur = await internalAccountOf(t, t.tenant.sandbox, sandboxCustomer.id, 'EUR');
  });
  afterAll(async () => {
    await t?.stop();
    ecb.closeAllConnections();
    await new Promise((resolve) => ecb.close(resolve));
  });

  const quote = (from: string, to: string, amount = 10_000) =>
    t.call('POST', '/quotes', { auth: t.tenant.production, body: { source: { sourceType: 'ACCOUNT', accountId: accounts[from] }, destination: { destinationType: 'ACCOUNT', accountId: accounts[to] }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount } });
  const rates = (from: string, to: string) => t.call('GET', `/exchange-rates?sourceCurrency=${from}&destinationCurrency=${to}`, { auth: t.tenant.production });
  const setRate = (from: string, to: string, body: Record<string, unknown>, auth = admin.auth) => t.operatorCall('PUT', `/rates/${from}/${to}`, { auth, body });
  const pricing = async (quoteId: string) => (await t.operatorCall('GET', `/quotes/${quoteId}/pricing`, { auth: viewer.auth })).body;

  async function productionQuotes(): Promise<number> {
    const db = new Client({ connectionString: t.database.url });
    await db.connect();
    try {
      return (await db.query(`SELECT count(*)::int AS n FROM quoting.quotes WHERE mode = 'PRODUCTION'`)).rows[0].n;
    } finally {
      await db.end();
    }
  }

  it('without a source, production quotes and exchange rates answer 501 naming what to configure, and record nothing', async () => {
    for (const res of [await quote('USD', 'NGN'), await rates('USD', 'NGN')]) {
      expect(res.status).toBe(501);
      expect(res.body).toMatchObject({ status: 501, code: 'RATE_SOURCE_NOT_CONFIGURED' });
      expect(res.body.message).toContain('PUT /operator/v1/rates/USD/NGN');
      expect(res.body.message).toContain('do not include NGN');
    }
    // The ECB is configured but has not delivered: its corridors wait (503), they are not priced from anything else.
    const waiting = await quote('USD', 'EUR');
    expect(waiting.body).toMatchObject({ status: 503, code: 'RATE_UNAVAILABLE' });
    expect(waiting.body.message).toContain('/stats/eurofxref/eurofxref-daily.xml');
    expect(await productionQuotes()).toBe(0);
  });

  it('only an ADMIN sets rates (a VIEWER gets 403), and entries are validated hard', async () => {
    const body = { midRate: '0.9123', validUntil: inSeconds(3600) };
    expect((await setRate('USD', 'EUR', body, viewer.auth)).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await t.operatorCall('DELETE', '/rates/USD/EUR', { auth: viewer.auth })).status).toBe(403);
    expect((await setRate('USD', 'EUR', { ...body, midRate: 0.9123 })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await setRate('USD', 'EUR', { ...body, midRate: '1e3' })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await setRate('USD', 'EUR', { ...body, midRate: '0' })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await setRate('USD', 'EUR', { ...body, validUntil: inSeconds(10 * 86_400) })).body.message).toContain('RATE_MAX_AGE_SECONDS');
    expect((await setRate('USD', 'USD', body)).body).toMatchObject({ status: 400, code: 'SAME_CURRENCY' });
    expect((await setRate('USD', 'XYZ', body)).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect((await t.operatorCall('GET', '/rates/history', { auth: viewer.auth })).body).toMatchObject({ data: [], totalCount: 0 });
  });

  let usdEurEntry: string;

  it("an ADMIN's USD→EUR rate prices production quotes exactly (plus fees), recorded as OPERATOR_TABLE and audited", async () => {
    const set = await setRate('USD', 'EUR', { midRate: '0.91230', validUntil: inSeconds(3600), reason: 'desk rate' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      id: expect.stringMatching(/^RateEntry:/),
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      kind: 'SET',
      midRate: '0.9123',
      validFrom: expect.any(String),
      validUntil: expect.any(String),
      reason: 'desk rate',
      operator: { id: admin.id, name: 'Ada Admin' },
      recordedAt: expect.any(String),
    });
    usdEurEntry = set.body.id;

    const q = await quote('USD', 'EUR', 10_000);
    expect(q.status).toBe(201);
    expect(q.body).toMatchObject(pricedAt('0.9123', 'USD', 'EUR', 10_000));
    expect(q.body.totalReceivingAmount).toBe(9123); // floor(10000 × 0.9123): production charges no service fee unless configured
    expect(await pricing(q.body.id)).toEqual({
      quoteId: q.body.id,
      platformId: expect.stringMatching(/^Platform:/),
      mode: 'PRODUCTION',
      status: 'PENDING',
      createdAt: q.body.createdAt,
      sendingCurrency: 'USD',
      receivingCurrency: 'EUR',
      pricing: {
        source: 'OPERATOR_TABLE',
        sourceCurrency: 'USD',
        destinationCurrency: 'EUR',
        midRate: '0.9123',
        derivation: 'DIRECT',
        publishedAt: set.body.validFrom,
        validUntil: set.body.validUntil,
        entryId: set.body.id,
        sourcePerBtc: '1',
        btcReference: 'NOMINAL',
      },
    });
    const listed = await rates('USD', 'EUR');
    expect(listed.body.data).toEqual([expect.objectContaining({ rate: 0.9123, updatedAt: set.body.validFrom, expiresAt: set.body.validUntil })]);
    // The other direction is priced at 1/mid.
    const back = await quote('EUR', 'USD', 10_000);
    expect((await pricing(back.body.id)).pricing).toMatchObject({ source: 'OPERATOR_TABLE', midRate: '1.09613065877453', derivation: 'INVERSE' });

    const audit = await eventually(async () => {
      const page = (await t.operatorCall('GET', '/audit-events?action=rates.*', { auth: viewer.auth })).body;
      expect(page.data).toHaveLength(1);
      return page.data[0];
    });
    expect(audit).toMatchObject({ service: 'quoting', operator: { id: admin.id, role: 'ADMIN' }, action: 'rates.set', target: { type: 'RatePair', id: 'USD/EUR' }, reason: 'desk rate', details: { entryId: set.body.id, midRate: '0.9123' } });
  });

  it('prices from the ECB document (cross rates through EUR, its publication time) once fetched; the operator rate keeps precedence', async () => {
    ecbServes = true;
    const source = await eventually(async () => {
      const list = (await t.operatorCall('GET', '/rates', { auth: viewer.auth })).body;
      const status = list.sources.find((s: { source: string }) => s.source === 'ECB');
      expect(status.referenceDate).toBe('2022-07-08');
      return status;
    });
    expect(source).toMatchObject({ configured: true, publishedAt: ECB_PUBLISHED_AT, fetchedAt: expect.any(String), stale: false, refreshSeconds: 1 });

    const q = await quote('USD', 'MXN', 10_000);
    expect(q.status).toBe(201);
    // 20.8477 / 1.0163, exactly, to 15 significant digits.
    expect(q.body).toMatchObject(pricedAt('20.513332677359', 'USD', 'MXN', 10_000));
    expect((await pricing(q.body.id)).pricing).toEqual({
      source: 'ECB',
      sourceCurrency: 'USD',
      destinationCurrency: 'MXN',
      midRate: '20.513332677359',
      derivation: 'CROSS_VIA_EUR',
      publishedAt: ECB_PUBLISHED_AT,
      validUntil: expect.any(String),
      referenceDate: '2022-07-08',
      fetchedAt: source.fetchedAt,
      sourcePerBtc: '1',
      btcReference: 'NOMINAL',
    });
    expect((await rates('USD', 'MXN')).body.data).toEqual([expect.objectContaining({ updatedAt: ECB_PUBLISHED_AT })]);

    const usdEur = await quote('USD', 'EUR');
    expect((await pricing(usdEur.body.id)).pricing).toMatchObject({ source: 'OPERATOR_TABLE', midRate: '0.9123' });
    const effective = (await t.operatorCall('GET', '/rates?sourceCurrency=USD&destinationCurrency=MXN', { auth: viewer.auth })).body.effective;
    expect(effective).toMatchObject({ pricing: { source: 'ECB', midRate: '20.513332677359' } });
    const list = (await t.operatorCall('GET', '/rates?sourceCurrency=EUR', { auth: viewer.auth })).body.data;
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'ECB', destinationCurrency: 'USD', midRate: '1.0163', referenceDate: '2022-07-08', stale: false })]));
  });

  it('an operator rate past its validity makes the corridor answer 503 RATE_STALE instead of pricing', async () => {
    const set = await setRate('USD', 'NGN', { midRate: '1550', validUntil: inSeconds(2) });
    expect(set.status).toBe(200);
    const priced = await quote('USD', 'NGN', 10_000);
    expect(priced.status).toBe(201);
    expect(priced.body).toMatchObject(pricedAt('1550', 'USD', 'NGN', 10_000));
    await new Promise((resolve) => setTimeout(resolve, Date.parse(set.body.validUntil) - Date.now() + 100));
    const stale = await quote('USD', 'NGN', 10_000);
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({ status: 503, code: 'RATE_STALE' });
    expect(stale.body.message).toContain('USD→NGN');
    expect(stale.body.message).toContain('OPERATOR_TABLE');
    expect(stale.body.message).toContain(`valid from ${set.body.validFrom}`);
    expect(stale.body.message).toContain(`expired at ${set.body.validUntil}`);
    expect((await rates('USD', 'NGN')).body).toMatchObject({ status: 503, code: 'RATE_STALE' });
    const view = (await t.operatorCall('GET', '/rates?sourceCurrency=USD&destinationCurrency=NGN', { auth: viewer.auth })).body;
    expect(view.data).toEqual([expect.objectContaining({ entryId: set.body.id, stale: true })]);
    expect(view.effective.refusal).toMatchObject({ status: 503, code: 'RATE_STALE' });
  });

  it('withdrawing keeps the history (newest first, cursor pages) and hands the corridor back to the ECB', async () => {
    const withdrawn = await t.operatorCall('DELETE', '/rates/USD/EUR?reason=back%20to%20ECB', { auth: admin.auth });
    expect(withdrawn.body).toMatchObject({ kind: 'WITHDRAWN', sourceCurrency: 'USD', destinationCurrency: 'EUR', reason: 'back to ECB' });
    expect(withdrawn.body.midRate).toBeUndefined();
    expect((await t.operatorCall('DELETE', '/rates/USD/EUR', { auth: admin.auth })).body).toMatchObject({ status: 404 });
    const q = await quote('USD', 'EUR');
    expect((await pricing(q.body.id)).pricing).toMatchObject({ source: 'ECB', midRate: '0.983961428711994', derivation: 'INVERSE' });

    const first = (await t.operatorCall('GET', '/rates/history?sourceCurrency=USD&destinationCurrency=EUR&limit=1', { auth: viewer.auth })).body;
    expect(first).toMatchObject({ data: [{ id: withdrawn.body.id, kind: 'WITHDRAWN' }], hasMore: true, totalCount: 2 });
    const second = (await t.operatorCall('GET', `/rates/history?sourceCurrency=USD&destinationCurrency=EUR&limit=1&cursor=${first.nextCursor}`, { auth: viewer.auth })).body;
    expect(second).toMatchObject({ data: [{ id: usdEurEntry, kind: 'SET', midRate: '0.9123' }], hasMore: false });
    expect((await t.operatorCall('GET', '/rates/history', { auth: viewer.auth })).body.totalCount).toBe(3);
  });

  it('keeps the fetched ECB document across a restart, while the ECB cannot be reached', async () => {
    ecbServes = false;
    await t.restart();
    const before = ecbRequests;
    const q = await quote('USD', 'MXN');
    expect(q.status).toBe(201);
    expect((await pricing(q.body.id)).pricing).toMatchObject({ source: 'ECB', referenceDate: '2022-07-08', publishedAt: ECB_PUBLISHED_AT });
    await eventually(async () => ecbRequests > before, { what: 'a fetch of the ECB document after the restart' });
    const status = await eventually(async () => {
      const ecbStatus = (await t.operatorCall('GET', '/rates', { auth: viewer.auth })).body.sources.find((s: { source: string }) => s.source === 'ECB');
      return ecbStatus.lastError ? ecbStatus : undefined;
    });
    expect(status).toMatchObject({ referenceDate: '2022-07-08', publishedAt: ECB_PUBLISHED_AT, lastError: 'HTTP 503' });
  });

  it('the sandbox still prices from its synthetic table', async () => {
    const res = await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT', accountId: sandboxUsd }, destination: { destinationType: 'ACCOUNT', accountId: sandboxEur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 } });
    expect(res.status).toBe(201);
    const table = new SandboxRateSource().rate('USD', 'EUR', res.body.createdAt)!;
    expect(res.body).toMatchObject(pricedAt(table.midRate, 'USD', 'EUR', 10_000, 'SANDBOX'));
    expect((await pricing(res.body.id)).pricing).toMatchObject({ source: 'SANDBOX', midRate: table.midRate, derivation: 'SYNTHETIC', publishedAt: table.updatedAt });
    expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=NGN')).body.data).toHaveLength(1);
  });
});
