import { eventually } from '@payments/testing';
import { approveInProduction, individualBody } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';
import { setProductionRates } from './test-rates';

const config = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const CURRENCIES = ['USD', 'EUR', 'MXN', 'USDC'].map(config);
const BASE_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const AMOUNT = 1_000_000;
const ceilBps = (amount: number, bps: number) => Math.ceil((amount * bps) / 10_000);

interface Accounts {
  usd: string;
  eur: string;
  mxn: string;
  usdc: string;
}

/**
 * The service's fees from the operator API (issue #28): an ADMIN sets a platform's corridor fee and its production
 * quotes charge exactly that (and say which schedule version priced them), GET /exchange-rates shows it, a VIEWER
 * reads but cannot set, bad input is a 4xx envelope, every change is in the history and the audit log, the sandbox
 * keeps its built-in fees, and production withdrawal estimates charge the configured network fee or answer 501.
 */
describe('operator fees (/operator/v1/fees, HTTP)', () => {
  let t: TestPlatform;
  let admin: TestOperator;
  let viewer: TestOperator;
  let tenant: TestTenant & { platformId?: string };
  let production: Accounts;
  let sandbox: Accounts;

  async function accountsOf(auth: string, mode: string): Promise<Accounts> {
    expect((await t.call('PATCH', '/config', { auth, body: { supportedCurrencies: CURRENCIES } })).status).toBe(200);
    const customer = await t.call('POST', '/customers', { auth, body: individualBody('Fee Payer', { region: 'US', umaAddress: `$fee.payer.${mode}@pay.example.com`, currencies: ['USD', 'EUR', 'MXN', 'USDC'] }) });
    expect(customer.body).toMatchObject({ id: expect.any(String) });
    const id = customer.body.id as string;
    if (mode === 'production') await approveInProduction(t, auth, id); // production quotes only for APPROVED customers
    return { usd: await internalAccountOf(t, auth, id, 'USD'), eur: await internalAccountOf(t, auth, id, 'EUR'), mxn: await internalAccountOf(t, auth, id, 'MXN'), usdc: await internalAccountOf(t, auth, id, 'USDC') };
  }

  beforeAll(async () => {
    t = await startTestPlatform();
    admin = await t.createOperator('ADMIN', 'Ada Admin');
    viewer = await t.createOperator('VIEWER', 'Vic Viewer');
    tenant = await t.createTenant('Fee payer platform');
    // Production prices only from a configured source: the rates are there, so what is refused here is something else.
    await setProductionRates(t, [['USD', 'EUR', '0.9'], ['USD', 'MXN', '17.25']]);
    production = await accountsOf(tenant.production, 'production');
    sandbox = await accountsOf(tenant.sandbox, 'sandbox');
  }, 120_000);
  afterAll(() => t?.stop());

  const quote = (auth: string, from: string, to: string) =>
    t.call('POST', '/quotes', { auth, body: { source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: AMOUNT } });
  /** The schedule a quote recorded (internal: the quote's QuoteCreated.v1 in quoting's log). */
  const pricedBy = async (quoteId: string) =>
    (await t.platform.quoting.host.dataSource.query(`SELECT data->'serviceFeeSchedule' AS schedule FROM events WHERE stream_id = $1 AND type = 'QuoteCreated.v1'`, [quoteId]))[0].schedule;
  const corridorFee = () => ({ platformId: tenant.platformId, sourceCurrency: 'USD', destinationCurrency: 'EUR', variableFeeBps: 120, fixedFees: [{ currency: 'USD', amount: 99 }], reason: 'negotiated rate card' });

  it('a VIEWER reads the schedules but cannot set them (403); a platform cannot reach them at all (401)', async () => {
    expect((await t.operatorCall('GET', '/fees/service', { auth: viewer.auth })).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const refused = await t.operatorCall('PUT', '/fees/service', { auth: viewer.auth, body: corridorFee() });
    expect(refused.body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await t.operatorCall('PUT', '/fees/network', { auth: viewer.auth, body: { currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 1, applicationFeeBps: 0 } })).status).toBe(403);
    expect((await t.operatorCall('PUT', '/fees/service', { auth: tenant.production, body: corridorFee() })).status).toBe(401);
    expect((await t.operatorCall('GET', '/fees/service/history', { auth: viewer.auth })).body).toMatchObject({ data: [], totalCount: 0 });
  });

  it('refuses bad input with the 4xx envelope, naming the field', async () => {
    const put = (body: Record<string, unknown>) => t.operatorCall('PUT', '/fees/service', { auth: admin.auth, body });
    expect((await put({ ...corridorFee(), variableFeeBps: 10_001 })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'variableFeeBps' }] } });
    expect((await put({ ...corridorFee(), destinationCurrency: undefined })).body).toMatchObject({ status: 400, details: { errors: [{ field: 'destinationCurrency' }] } });
    expect((await put({ ...corridorFee(), fixedFees: [{ currency: 'EUR', amount: 5 }] })).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect((await put({ ...corridorFee(), fixedFees: [{ currency: 'USD', amount: -1 }] })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await put({ ...corridorFee(), platformId: 'Platform:0190f5a0-0000-7000-8000-000000000000' })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await put({ ...corridorFee(), surprise: true })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await t.operatorCall('DELETE', '/fees/service/ServiceFeeSchedule:deployment:default', { auth: admin.auth })).body).toMatchObject({ status: 404 });
    expect((await t.operatorCall('GET', '/fees/service', { auth: viewer.auth })).body.totalCount).toBe(0);
  });

  it("charges a production quote exactly the platform's corridor fee an ADMIN set, records which version, and shows it in GET /exchange-rates", async () => {
    const unpriced = await quote(tenant.production, production.usd, production.eur);
    expect(unpriced.status).toBe(201);
    expect(unpriced.body.feesIncluded).toBe(0); // production without any schedule: no service fee
    expect(await pricedBy(unpriced.body.id)).toBeNull();

    const set = await t.operatorCall('PUT', '/fees/service', { auth: admin.auth, body: corridorFee() });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      id: `ServiceFeeSchedule:${tenant.platformId}:USD-EUR`,
      platformId: tenant.platformId,
      sourceCurrency: 'USD',
      destinationCurrency: 'EUR',
      variableFeeBps: 120,
      fixedFees: [{ amount: 99, currency: 'USD' }],
      version: 1,
      updatedAt: expect.any(String),
      updatedBy: { id: admin.id, name: 'Ada Admin' },
    });
    const priced = await quote(tenant.production, production.usd, production.eur);
    expect(priced.body.feesIncluded).toBe(ceilBps(AMOUNT, 120) + 99);
    expect(priced.body.totalSendingAmount).toBe(AMOUNT);
    expect(await pricedBy(priced.body.id)).toEqual({ id: set.body.id, version: 1 });
    // Another corridor of the platform has no schedule: no service fee.
    expect((await quote(tenant.production, production.usd, production.mxn)).body.feesIncluded).toBe(0);

    const rates = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR,MXN', { auth: tenant.production });
    expect(rates.body.data.map((r: any) => [r.destinationCurrency.code, r.fixedFee, r.variableFeeRate])).toEqual([
      ['EUR', 99, 1.2],
      ['MXN', 0, 0],
    ]);
  });

  it('keeps the sandbox on its built-in fees (0.5% and 25 US cents)', async () => {
    const res = await quote(tenant.sandbox, sandbox.usd, sandbox.eur);
    expect(res.body.feesIncluded).toBe(ceilBps(AMOUNT, 50) + 25);
    expect(await pricedBy(res.body.id)).toEqual({ id: 'ServiceFeeSchedule:sandbox', version: 1 });
  });

  it('keeps every change in the history and the audit log; removing a schedule falls back to the next', async () => {
    const id = `ServiceFeeSchedule:${tenant.platformId}:USD-EUR`;
    const deploymentDefault = await t.operatorCall('PUT', '/fees/service', { auth: admin.auth, body: { variableFeeBps: 30, fixedFees: [{ currency: 'USD', amount: 10 }] } });
    expect(deploymentDefault.body).toMatchObject({ id: 'ServiceFeeSchedule:deployment:default', platformId: null, sourceCurrency: null, destinationCurrency: null });
    const changed = await t.operatorCall('PUT', '/fees/service', { auth: admin.auth, body: { ...corridorFee(), variableFeeBps: 110, reason: 'volume discount' } });
    expect(changed.body.version).toBe(2);
    const removed = await t.operatorCall('DELETE', `/fees/service/${encodeURIComponent(id)}?reason=contract%20ended`, { auth: admin.auth });
    expect(removed.body).toMatchObject({ id, version: 3, change: 'REMOVED', reason: 'contract ended' });
    expect((await quote(tenant.production, production.usd, production.eur)).body.feesIncluded).toBe(ceilBps(AMOUNT, 30) + 10);

    const history = await t.operatorCall('GET', `/fees/service/history?scheduleId=${encodeURIComponent(id)}`, { auth: viewer.auth });
    expect(history.body.data.map((v: any) => [v.version, v.change, v.variableFeeBps, v.reason])).toEqual([
      [3, 'REMOVED', 110, 'contract ended'],
      [2, 'SET', 110, 'volume discount'],
      [1, 'SET', 120, 'negotiated rate card'],
    ]);
    const listed = await t.operatorCall('GET', '/fees/service', { auth: viewer.auth });
    expect(listed.body.data.map((s: any) => s.id)).toEqual(['ServiceFeeSchedule:deployment:default']);

    const audit = await eventually(async () => {
      const res = await t.operatorCall('GET', '/audit-events?action=fees.*', { auth: viewer.auth });
      return res.body.data?.length >= 4 ? res.body.data : undefined;
    }, { what: 'the fee changes in the audit log' });
    expect(audit.map((a: any) => [a.action, a.target.id, a.operator.id])).toEqual([
      ['fees.remove-service', id, admin.id],
      ['fees.set-service', id, admin.id],
      ['fees.set-service', 'ServiceFeeSchedule:deployment:default', admin.id],
      ['fees.set-service', id, admin.id],
    ]);
    expect(audit[3]).toMatchObject({ service: 'quoting', platformId: tenant.platformId, reason: 'negotiated rate card', details: { variableFeeBps: 120 } });
  });

  it('prices production withdrawal estimates from the configured network fee, 501 without one; the sandbox from its table', async () => {
    const estimate = (auth: string, internalAccountId: string) =>
      t.call('POST', '/crypto/estimate-withdrawal-fee', { auth, body: { internalAccountId, currency: 'USDC', cryptoNetwork: 'BASE', amount: 10_000_000, destinationAddress: BASE_ADDRESS } });
    expect((await estimate(tenant.production, production.usdc)).body).toMatchObject({ status: 501, details: { configure: 'PUT /operator/v1/fees/network' } });
    const set = await t.operatorCall('PUT', '/fees/network', { auth: admin.auth, body: { currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 25_000, applicationFeeBps: 5, reason: 'gas' } });
    expect(set.body).toMatchObject({ id: 'NetworkFeeSchedule:deployment:USDC:BASE', networkFee: 25_000, networkFeeAsset: 'ETH', applicationFeeBps: 5, version: 1 });
    expect((await estimate(tenant.production, production.usdc)).body).toEqual({ networkFee: 25_000, networkFeeAsset: 'ETH', applicationFee: 5_000, totalFee: 30_000, netAmount: 9_970_000 });
    expect((await estimate(tenant.sandbox, sandbox.usdc)).body).toEqual({ networkFee: 10_000, networkFeeAsset: 'ETH', applicationFee: 10_000, totalFee: 20_000, netAmount: 9_980_000 });
    expect((await t.operatorCall('PUT', '/fees/network', { auth: admin.auth, body: { currency: 'USDC', cryptoNetwork: 'TRON', networkFee: 1, applicationFeeBps: 0 } })).body).toMatchObject({ status: 400, details: { errors: [{ field: 'cryptoNetwork' }] } });
    expect((await t.operatorCall('GET', '/fees/network?currency=USDC', { auth: viewer.auth })).body).toMatchObject({ data: [{ id: set.body.id }], totalCount: 1 });
    const removed = await t.operatorCall('DELETE', `/fees/network/${encodeURIComponent(set.body.id)}`, { auth: admin.auth });
    expect(removed.body).toMatchObject({ change: 'REMOVED', version: 2 });
    expect((await estimate(tenant.production, production.usdc)).status).toBe(501);
    expect((await t.operatorCall('GET', '/fees/network/history', { auth: viewer.auth })).body.data.map((v: any) => v.change)).toEqual(['REMOVED', 'SET']);
  });
});
