import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort } from '@payments/testing';
import { individualBody, kycStatusReached } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import { setProductionRates } from './test-rates';
import { achConnector } from './test-rails';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

const currency = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const usdAccount = (accountNumber: string) => ({
  currency: 'USD',
  accountInfo: { accountType: 'USD_ACCOUNT', accountNumber, routingNumber: '021000021', bankAccountType: 'CHECKING', bankName: 'Test Bank', beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Pat Payee', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } } },
});

/**
 * Issue #41 item 3 through HTTP: in production, money moves only for customers whose KYC is APPROVED. A customer
 * waiting in the operators' review queue (PENDING_MANUAL_REVIEW) or rejected by them is refused 403 USER_NOT_READY
 * before anything is recorded: no transaction, no rail payment, no ACH entry in a file. Approved, the same request
 * with a new Idempotency-Key moves the money.
 */
describe('production transfers only for APPROVED customers', () => {
  let t: TestPlatform;
  let root: string;
  let platform: TestTenant;
  let reviewer: TestOperator;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pp-kyc-gate-'));
    const rails = { connectors: [achConnector(root)] };
    const port = await freePort();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', KYC_APPROVALS_REQUIRED: '1', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RAILS_CONFIG: JSON.stringify(rails) });
    reviewer = await t.createOperator('REVIEWER', 'Rita Reviewer');
    platform = await t.createTenant('Gate Co');
    expect((await prod('PATCH', '/config', { umaDomain: 'gate-co.example', supportedCurrencies: [currency('USD'), currency('EUR')] })).status).toBe(200);
    await setProductionRates(t, [['USD', 'EUR', '0.9']]);
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const prod = (method: string, path: string, body?: unknown, key?: string) => t.call(method, path, { auth: platform.production, body, headers: key ? { 'idempotency-key': key } : undefined });
  const op = (path: string, body: unknown) => t.operatorCall('POST', path, { auth: reviewer.auth, body });
  const railPayments = async (): Promise<number> => Number((await t.platform.payments.host.dataSource.query(`SELECT count(*) AS n FROM payments.rail_payments`))[0].n);
  const transactionsOf = async (customerId: string) => (await prod('GET', `/transactions?customerId=${encodeURIComponent(customerId)}`)).body.data as unknown[];
  /** A decision on the customer's review, once the queue (fed from identity's events) has it. */
  const decide = (verificationId: string, decision: 'approve' | 'reject') =>
    eventually(async () => {
      const res = await op(`/kyc-reviews/${verificationId}/${decision}`, { reason: decision === 'approve' ? 'documents match' : 'sanctions list match' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the KYC review in the queue' });
  /** A customer submitted for KYC (waiting in PENDING_MANUAL_REVIEW), its USD internal account and an ACTIVE external account. */
  async function submittedCustomer(name: string, accountNumber: string) {
    const customer = await prod('POST', '/customers', individualBody(name));
    expect(customer.status).toBe(201);
    const customerId: string = customer.body.id;
    const verification = await prod('POST', '/verifications', { customerId });
    expect(verification.body).toMatchObject({ verificationStatus: 'PENDING_MANUAL_REVIEW' });
    const internal = await internalAccountOf(t, platform.production, customerId, 'USD');
    const external = await prod('POST', '/customers/external-accounts', { customerId, ...usdAccount(accountNumber) });
    expect(external.status).toBe(201);
    const approved = await eventually(async () => {
      const res = await op(`/external-account-reviews/${external.body.id}/approve`, { reason: 'statement matches' });
      return res.status === 404 ? undefined : res;
    }, { what: 'the account in the review queue' });
    expect(approved.status).toBe(200);
    await kycStatusReached(t, customerId, 'PENDING'); // the refusals below name the status payments and quoting know
    return { customerId, verificationId: verification.body.id as string, internal, external: external.body.id as string };
  }
  const expectNotReady = (res: { status: number; body: any }, customerId: string, kycStatus: string) => {
    expect({ status: res.status, body: res.body }).toEqual({
      status: 403,
      body: {
        status: 403,
        code: 'USER_NOT_READY',
        message: `customer ${customerId} has kycStatus ${kycStatus}; production money moves only for APPROVED customers`,
        details: { customerId, kycStatus },
      },
    });
  };

  it('refuses transfer-in and transfer-out while the KYC review is pending, records nothing, and moves money once approved', async () => {
    const c = await submittedCustomer('Pending Pat', '4400123001');
    const before = await railPayments();
    const pull = { source: { accountId: c.external }, destination: { accountId: c.internal }, amount: 10_000 };
    const refusedIn = await prod('POST', '/transfer-in', pull, 'gate-in-1');
    expectNotReady(refusedIn, c.customerId, 'PENDING');
    expectNotReady(await prod('POST', '/transfer-out', { source: { accountId: c.internal }, destination: { accountId: c.external }, amount: 1 }), c.customerId, 'PENDING');
    // The refusal is the request's answer (replayed under its key); nothing reached the ledger, the saga or the rails.
    const replay = await prod('POST', '/transfer-in', pull, 'gate-in-1');
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body.code]).toEqual([403, 'true', 'USER_NOT_READY']);
    expect(await transactionsOf(c.customerId)).toEqual([]);
    expect(await railPayments()).toBe(before);
    expect(readdirSync(join(root, 'ach-out'), { withFileTypes: true }).filter((f) => f.isFile()).length).toBe(0);

    expect((await decide(c.verificationId, 'approve')).body).toMatchObject({ reviewStatus: 'APPROVED' });
    // Payments learns the approval from identity's CustomerKycStatusChanged.v1: a new request goes through once it has.
    const created = await eventually(async () => {
      const res = await prod('POST', '/transfer-in', pull);
      return res.status === 403 ? undefined : res;
    }, { what: 'the approval reaching payments' });
    expect({ status: created.status, type: created.body.type }).toEqual({ status: 201, type: 'INCOMING' });
    expect(await transactionsOf(c.customerId)).toHaveLength(1);
    await eventually(async () => ((await railPayments()) === before + 1 ? true : undefined), { what: 'the ACH debit handed to the rail' });
  });

  it('refuses a customer the reviewers rejected', async () => {
    const c = await submittedCustomer('Rejected Ray', '4400123002');
    expect((await decide(c.verificationId, 'reject')).status).toBe(200);
    const refused = await eventually(async () => {
      const res = await prod('POST', '/transfer-in', { source: { accountId: c.external }, destination: { accountId: c.internal }, amount: 10_000 });
      return res.body.message?.includes('REJECTED') ? res : undefined;
    }, { what: 'the rejection reaching payments' });
    expectNotReady(refused, c.customerId, 'REJECTED');
    expect(await transactionsOf(c.customerId)).toEqual([]);
  });

  it('refuses a quote for a customer not approved, and its execution if the approval is gone by then', async () => {
    const c = await submittedCustomer('Quoting Quinn', '4400123003');
    const eur = await internalAccountOf(t, platform.production, c.customerId, 'EUR');
    const quote = { source: { sourceType: 'ACCOUNT', accountId: c.internal }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 };
    const quotes = async () => Number((await t.platform.quoting.host.dataSource.query(`SELECT count(*) AS n FROM quoting.quotes WHERE customer_id = $1`, [c.customerId]))[0].n);
    expectNotReady(await prod('POST', '/quotes', quote), c.customerId, 'PENDING');
    expectNotReady(await prod('POST', '/quotes', { ...quote, immediatelyExecute: true }), c.customerId, 'PENDING');
    expect(await quotes()).toBe(0);

    expect((await decide(c.verificationId, 'approve')).body).toMatchObject({ reviewStatus: 'APPROVED' });
    const created = await eventually(async () => {
      const res = await prod('POST', '/quotes', quote);
      return res.status === 403 ? undefined : res;
    }, { what: 'the approval reaching quoting' });
    expect(created.status).toBe(201);
    // Identity's next word on the customer (as its CustomerKycStatusChanged.v1 would write it) withdraws the approval.
    await t.platform.quoting.host.dataSource.query(`UPDATE quoting.customers SET kyc_status = 'PENDING' WHERE customer_id = $1`, [c.customerId]);
    expectNotReady(await prod('POST', `/quotes/${created.body.id}/execute`), c.customerId, 'PENDING');
    expect((await prod('GET', `/quotes/${created.body.id}`)).body.status).toBe('PENDING');
    expect(await transactionsOf(c.customerId)).toEqual([]);
  });
});
