import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { join } from 'node:path';
import { eventually, HttpResult } from '@payments/testing';
import { approvalReached, individualBody, US_ADDRESS } from './test-kyc';
import { ngnAccount } from './test-external-accounts';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

/** The ECB's daily document of Friday 8 July 2022, recorded (libs/quoting/src/rates/ecb/fixtures/README.md). */
const ECB_DOCUMENT = readFileSync(join(__dirname, '../../quoting/src/rates/ecb/fixtures/eurofxref-daily.2022-07-08.xml'));
const currency = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/**
 * Issue #28's "done when", through HTTP only (the platform API and the operator API): a production platform goes
 * live. Its customer is reviewed (changes requested, fixed, resubmitted, approved by two reviewers), its external
 * account approved, its quotes priced from an operator's rate and from the ECB's recorded document, and refused once
 * the rate is stale; every operator action is in the audit log; the two APIs' credentials do not cross; a VIEWER
 * cannot decide. The production webhook endpoint is https (production's rule), so the webhooks are read where the
 * dispatcher queued them for delivery.
 */
describe('going live: a production platform through the platform API and the operator API', () => {
  let t: TestPlatform;
  let ecb: Server;
  let platform: TestTenant & { platformId: string };
  let admin: TestOperator;
  let rita: TestOperator;
  let rob: TestOperator;
  let vic: TestOperator;

  beforeAll(async () => {
    ecb = createServer((req, res) => void (req.url === '/eurofxref-daily.xml' ? res.writeHead(200, { 'content-type': 'text/xml' }).end(ECB_DOCUMENT) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => ecb.listen(0, '127.0.0.1', resolve));
    // The recorded document is from 2022: a long maximum age lets it price (staleness is shown on the operator table).
    t = await startTestPlatform({
      SANDBOX_TIME_SCALE: '0.001',
      ECB_RATES_URL: `http://127.0.0.1:${(ecb.address() as { port: number }).port}/eurofxref-daily.xml`,
      ECB_MAX_AGE_SECONDS: String(20 * 365 * 86_400),
      KYC_APPROVALS_REQUIRED: '2',
    });
    [admin, rita, rob, vic] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer'), await t.createOperator('REVIEWER', 'Rob Reviewer'), await t.createOperator('VIEWER', 'Vic Viewer')];
    platform = (await t.createTenant('Live Co')) as TestTenant & { platformId: string };
    const configured = await prod('PATCH', '/config', { webhookEndpoint: 'https://hooks.live-co.example/payments', umaDomain: 'live-co.example', supportedCurrencies: ['USD', 'EUR', 'MXN', 'NGN'].map(currency) });
    expect(configured.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    ecb?.closeAllConnections();
    await new Promise((resolve) => ecb?.close(resolve));
  });

  const prod = (method: string, path: string, body?: unknown) => t.call(method, path, { auth: platform.production, body });
  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  const expectError = (res: HttpResult, status: number, code: string) => expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  /** The platform's production webhooks of `type` about `id`, as the dispatcher queued them (their `data`). */
  const webhooks = (type: string, id: string) =>
    eventually(
      async () => {
        const rows: { data_json: string }[] = await t.platform.webhooks.host.dataSource.query(
          `SELECT data_json FROM webhooks.deliveries WHERE platform_id = $1 AND mode = 'PRODUCTION' AND type = $2 ORDER BY created_at`,
          [platform.platformId, type],
        );
        const found = rows.map((r) => JSON.parse(r.data_json)).filter((data) => data.id === id);
        return found.length > 0 ? found : undefined;
      },
      { what: `${type} about ${id}` },
    );

  let customerId: string;
  let verificationId: string;
  /** Quotes of the platform API have no list: count what quoting recorded, to show a refusal recorded nothing. */
  const productionQuotes = async () => Number((await t.platform.quoting.host.dataSource.query(`SELECT count(*)::int AS n FROM quoting.quotes WHERE mode = 'PRODUCTION'`))[0].n);

  it('a customer is reviewed: changes requested, fixed and resubmitted, then approved by two different reviewers', async () => {
    const created = await prod('POST', '/customers', individualBody('Lena Live', { address: { ...US_ADDRESS, line1: '1 Wrong St' } }));
    expect({ status: created.status, body: created.status === 201 ? undefined : created.body }).toEqual({ status: 201, body: undefined });
    customerId = created.body.id;
    const submitted = await prod('POST', '/verifications', { customerId });
    expect(submitted.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW' });
    verificationId = submitted.body.id;
    expect((await prod('GET', `/customers/${customerId}`)).body.kycStatus).toBe('PENDING');

    // In the queue, with the customer as the platform sees it.
    const queue = await op('GET', `/kyc-reviews?platformId=${platform.platformId}`, vic);
    expect(queue.body.data).toEqual([expect.objectContaining({ verificationId, reviewStatus: 'AWAITING_REVIEW', customer: (await prod('GET', `/customers/${customerId}`)).body })]);

    // A VIEWER cannot decide; a reviewer requests changes: RESOLVE_ERRORS with exactly the errors, and the webhook.
    expectError(await op('POST', `/kyc-reviews/${verificationId}/approve`, vic, {}), 403, 'FORBIDDEN');
    const errors = [{ resourceId: customerId, type: 'INVALID_FIELD', field: 'address.line1', reason: 'the address does not match the ID' }];
    const changes = await op('POST', `/kyc-reviews/${verificationId}/request-changes`, rita, { reason: 'address mismatch', errors });
    expect(changes.body).toMatchObject({ reviewStatus: 'CHANGES_REQUESTED' });
    const resolve = (await prod('GET', `/verifications/${verificationId}`)).body;
    expect(resolve).toMatchObject({ verificationStatus: 'RESOLVE_ERRORS', errors });
    expect((await webhooks('VERIFICATION.RESOLVE_ERRORS', verificationId))[0]).toEqual(resolve);

    // The platform fixes the customer and submits again: back in the queue.
    expect((await prod('PATCH', `/customers/${customerId}`, { address: US_ADDRESS })).status).toBe(200);
    expect((await prod('POST', '/verifications', { customerId })).body).toMatchObject({ id: verificationId, verificationStatus: 'PENDING_MANUAL_REVIEW' });

    // Four eyes: Rita's approval waits for another reviewer; Rita again is refused; Rob's decides.
    expect((await op('POST', `/kyc-reviews/${verificationId}/approve`, rita, { reason: 'address fixed' })).body).toMatchObject({ reviewStatus: 'AWAITING_SECOND_APPROVAL' });
    expect((await prod('GET', `/customers/${customerId}`)).body.kycStatus).toBe('PENDING');
    expectError(await op('POST', `/kyc-reviews/${verificationId}/approve`, rita, {}), 409, 'KYC_REVIEW_SAME_APPROVER');
    expect((await op('POST', `/kyc-reviews/${verificationId}/approve`, rob, { reason: 'second look: fine' })).body).toMatchObject({ reviewStatus: 'APPROVED' });

    const customer = (await prod('GET', `/customers/${customerId}`)).body;
    expect(customer.kycStatus).toBe('APPROVED');
    await approvalReached(t, customerId); // production quotes once payments and quoting know of it
    expect((await prod('GET', `/verifications/${verificationId}`)).body).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
    expect((await webhooks('CUSTOMER.KYC_APPROVED', customerId))[0]).toMatchObject({ id: customerId, kycStatus: 'APPROVED' });
    expect(await webhooks('VERIFICATION.APPROVED', verificationId)).toHaveLength(1);
  });

  it('an external account is approved by an operator and becomes ACTIVE, with its webhook', async () => {
    const created = await prod('POST', '/customers/external-accounts', { customerId, ...ngnAccount('321') });
    expect(created.body).toMatchObject({ status: 'PENDING' });
    const accountId: string = created.body.id;
    expect((await op('GET', `/external-account-reviews?platformId=${platform.platformId}`, vic)).body.data.map((r: { id: string }) => r.id)).toEqual([accountId]);
    expectError(await op('POST', `/external-account-reviews/${accountId}/approve`, vic, {}), 403, 'FORBIDDEN');
    expect((await op('POST', `/external-account-reviews/${accountId}/approve`, rita, { reason: 'statement matches' })).status).toBe(200);
    const account = (await prod('GET', `/customers/external-accounts/${accountId}`)).body;
    expect(account.status).toBe('ACTIVE');
    expect((await webhooks('EXTERNAL_ACCOUNT.STATUS_UPDATED', accountId)).at(-1)).toMatchObject({ id: accountId, status: 'ACTIVE' });
  });

  it('quotes are priced from the operator rate table and from the recorded ECB document, and refused once the rate is stale', async () => {
    const accounts: Record<string, string> = {};
    for (const code of ['USD', 'EUR', 'MXN', 'NGN']) accounts[code] = await internalAccountOf(t, platform.production, customerId, code);
    const quote = (from: string, to: string) =>
      prod('POST', '/quotes', { source: { sourceType: 'ACCOUNT', accountId: accounts[from] }, destination: { destinationType: 'ACCOUNT', accountId: accounts[to] }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 });
    const pricing = async (quoteId: string) => (await op('GET', `/quotes/${quoteId}/pricing`, vic)).body.pricing;

    // The operator's rate: exactly it (production charges no service fee until a schedule is set).
    expectError(await op('PUT', '/rates/USD/EUR', vic, { midRate: '0.9123', validUntil: inSeconds(3600) }), 403, 'FORBIDDEN');
    expect((await op('PUT', '/rates/USD/EUR', admin, { midRate: '0.9123', validUntil: inSeconds(3600), reason: 'treasury desk' })).status).toBeLessThan(300);
    const fromTable = await quote('USD', 'EUR');
    expect(fromTable.status).toBe(201);
    expect(fromTable.body).toMatchObject({ totalSendingAmount: 10_000, totalReceivingAmount: 9_123, feesIncluded: 0 });
    expect(await pricing(fromTable.body.id)).toMatchObject({ source: 'OPERATOR_TABLE', midRate: '0.9123' });

    // The ECB's document: USD→MXN is EURMXN / EURUSD of 8 July 2022, published at 16:00 in Frankfurt.
    const fromEcb = await eventually(async () => {
      const res = await quote('USD', 'MXN');
      return res.status === 201 ? res : undefined;
    }, { what: 'the ECB document fetched' });
    expect(await pricing(fromEcb.body.id)).toMatchObject({ source: 'ECB', midRate: '20.513332677359', publishedAt: '2022-07-08T14:00:00.000Z' });
    expect(fromEcb.body.totalReceivingAmount).toBe(Math.floor(100 * 20.513332677359 * 100));

    // A corridor the ECB does not publish, priced by an operator rate for two seconds: then 503 RATE_STALE, nothing recorded.
    expect((await op('PUT', '/rates/USD/NGN', admin, { midRate: '1550', validUntil: inSeconds(2), reason: 'short window' })).status).toBeLessThan(300);
    expect((await quote('USD', 'NGN')).status).toBe(201);
    // Waits on GET /exchange-rates (which records nothing) for the window to pass, then quotes.
    await eventually(async () => ((await prod('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=NGN')).status === 503 ? true : undefined), { what: 'the USD/NGN rate going stale', timeoutMs: 10_000 });
    const quotesBefore = await productionQuotes();
    const stale = await quote('USD', 'NGN');
    expect(stale.body).toMatchObject({ status: 503, code: 'RATE_STALE' });
    expect(stale.body.message).toContain('USD');
    expect(await productionQuotes()).toBe(quotesBefore);
  });

  it('records every operator action in the audit log, with who, what and why', async () => {
    const log = await eventually(async () => {
      const page = await op('GET', `/audit-events?platformId=${platform.platformId}`, vic);
      return page.body.totalCount >= 4 ? page.body.data : undefined;
    }, { what: 'the platform-scoped audit records' });
    expect(log.map((e: { action: string; operator: { name: string } }) => [e.action, e.operator.name]).reverse()).toEqual([
      ['kyc.request-changes', 'Rita Reviewer'],
      ['kyc.approve', 'Rita Reviewer'],
      ['kyc.approve', 'Rob Reviewer'],
      ['external-account.approve', 'Rita Reviewer'],
    ]);
    expect(log.at(-1)).toMatchObject({ reason: 'address mismatch', target: { type: 'Verification', id: verificationId } });
    const rates = (await op('GET', '/audit-events?action=rates.*', vic)).body.data;
    expect(rates.map((e: { target: { id: string }; operator: { name: string }; reason?: string }) => [e.target.id, e.operator.name, e.reason])).toEqual([
      ['USD/NGN', 'Ada Admin', 'short window'],
      ['USD/EUR', 'Ada Admin', 'treasury desk'],
    ]);
  });

  it('keeps the two APIs apart: platform credentials on the operator API and operator credentials on the platform API are 401', async () => {
    for (const auth of [platform.production, platform.sandbox]) {
      for (const path of ['/kyc-reviews', '/external-account-reviews', '/rates', '/audit-events']) expectError(await t.operatorCall('GET', path, { auth }), 401, 'UNAUTHORIZED');
    }
    for (const operator of [admin, rita, vic]) {
      for (const path of ['/customers', `/customers/${customerId}`, '/transactions', '/config']) expectError(await t.call('GET', path, { auth: operator.auth }), 401, 'UNAUTHORIZED');
    }
  });
});
