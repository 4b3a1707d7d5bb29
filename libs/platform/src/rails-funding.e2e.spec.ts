import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, freePort, HttpResult } from '@payments/testing';
import { camt054Credits } from '@payments/rails/testing';
import { individualBody } from './test-kyc';
import { expectLedgerClean } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestOperator, TestPlatform, TestTenant } from './test-platform';

const FBO_IBAN = 'DE89370400440532013000';
const currency = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });

/**
 * Issue #41 item 6, through HTTP: production accounts can receive money. The operator configures a deposit account
 * per currency (EUR: an FBO IBAN with reference codes; USD: a range of virtual account numbers at the sponsor bank);
 * internal accounts list them as funding instructions; a camt.054 credit naming an account's reference (typed
 * carelessly) or its virtual number credits it once, as an INCOMING transaction with its webhooks, whichever platform
 * owns it; a credit naming nothing is an exception an operator assigns (credited once, audited) or marks returned.
 */
describe('rails: production funding instructions and incoming credits', () => {
  let t: TestPlatform;
  let root: string;
  let admin: TestOperator;
  let reviewer: TestOperator;
  let viewer: TestOperator;
  let alpha: TestTenant & { platformId: string };
  let beta: TestTenant & { platformId: string };
  let alphaCustomer: string;
  let betaCustomer: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'pp-funding-'));
    const rails = {
      connectors: [
        {
          id: 'sepa',
          kind: 'ISO20022',
          routes: [{ currency: 'EUR', paymentRail: 'SEPA', directions: ['PAYOUT'] }],
          outboxDirectory: join(root, 'out'),
          inboxDirectory: join(root, 'in'),
          batchIntervalSeconds: 1,
          iso20022: { initiatingPartyName: 'Payments Platform', debtorName: 'Payments Platform Ltd', debtorIban: FBO_IBAN, debtorAgentBic: 'COBADEFFXXX' },
        },
      ],
      depositAccounts: [
        { currency: 'EUR', bankName: 'Sponsor Bank AG', accountHolderName: 'Payments Platform Ltd FBO customers', iban: FBO_IBAN, bic: 'COBADEFFXXX' },
        { currency: 'USD', bankName: 'Sponsor Bank NA', accountHolderName: 'Payments Platform FBO customers', routingNumber: '021000021', virtualAccounts: { from: '8800000000', to: '8800000099' } },
      ],
    };
    const port = await freePort();
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, RAILS_CONFIG: JSON.stringify(rails) });
    [admin, reviewer, viewer] = [await t.createOperator('ADMIN', 'Ada Admin'), await t.createOperator('REVIEWER', 'Rita Reviewer'), await t.createOperator('VIEWER', 'Vic Viewer')];
    alpha = (await t.createTenant('Alpha Co')) as TestTenant & { platformId: string };
    beta = (await t.createTenant('Beta Co')) as TestTenant & { platformId: string };
    for (const [i, tenant] of [alpha, beta].entries()) {
      const res = await t.call('PATCH', '/config', { auth: tenant.production, body: { webhookEndpoint: 'https://hooks.example/payments', umaDomain: `tenant${i}.example`, supportedCurrencies: ['USD', 'EUR', 'GBP'].map(currency) } });
      expect(res.status).toBe(200);
    }
    const created = [await t.call('POST', '/customers', { auth: alpha.production, body: individualBody('Ana Alpha') }), await t.call('POST', '/customers', { auth: beta.production, body: individualBody('Ben Beta') })];
    expect(created.map((c) => (c.status === 201 ? 201 : c.body))).toEqual([201, 201]);
    [alphaCustomer, betaCustomer] = created.map((c) => c.body.id as string);
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const op = (method: string, path: string, who: TestOperator, body?: unknown) => t.operatorCall(method, path, { auth: who.auth, body });
  const accountOf = async (tenant: TestTenant, customerId: string, code: string) => {
    const id = await internalAccountOf(t, tenant.production, customerId, code);
    const res = await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&currency=${code}`, { auth: tenant.production });
    return res.body.data.find((a: { id: string }) => a.id === id);
  };
  const balanceOf = async (tenant: TestTenant, customerId: string, code: string) => (await accountOf(tenant, customerId, code)).balance.amount as number;
  const importFile = async (name: string, content: string) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const res = await fetch(`${new URL(t.url).origin}/operator/v1/rails/imports`, { method: 'POST', headers: { authorization: admin.auth }, body: form });
    return { status: res.status, body: await res.json() } as HttpResult;
  };
  const incoming = (tenant: TestTenant) => t.call('GET', '/transactions?type=INCOMING', { auth: tenant.production }).then((r) => r.body.data as any[]);
  const completed = (tenant: TestTenant, id: string) =>
    eventually(async () => {
      const res = await t.call('GET', `/transactions/${id}`, { auth: tenant.production });
      return res.body.status === 'COMPLETED' ? res.body : undefined;
    }, { what: `${id} COMPLETED` });
  const webhooksAbout = async (tenant: TestTenant & { platformId: string }, id: string, count: number): Promise<string[]> =>
    eventually(async () => {
      const rows: { type: string; data_json: string }[] = await t.platform.webhooks.host.dataSource.query(
        `SELECT type, data_json FROM webhooks.deliveries WHERE platform_id = $1 AND mode = 'PRODUCTION' ORDER BY created_at, webhook_id`,
        [tenant.platformId],
      );
      const types = rows.filter((r) => JSON.parse(r.data_json).id === id).map((r) => r.type);
      return types.length >= count ? types : undefined;
    }, { what: `${count} webhooks about ${id}` });

  let eurReference: string;
  it('production internal accounts list the configured deposit account: the FBO IBAN with a reference, a virtual account number each; none in a currency without one', async () => {
    const eur = await accountOf(alpha, alphaCustomer, 'EUR');
    expect(eur.fundingPaymentInstructions).toEqual([
      {
        accountOrWalletInfo: expect.objectContaining({ accountType: 'EUR_ACCOUNT', iban: FBO_IBAN, swiftCode: 'COBADEFFXXX', bankName: 'Sponsor Bank AG', accountHolderName: 'Payments Platform Ltd FBO customers', reference: expect.stringMatching(/^PP[0-9A-F]{10}$/) }),
        instructionsNotes: expect.stringContaining('payment reference'),
        isPlatformAccount: false,
      },
    ]);
    eurReference = eur.fundingPaymentInstructions[0].accountOrWalletInfo.reference;
    // Shown again: the same reference (allocated once, kept).
    expect((await accountOf(alpha, alphaCustomer, 'EUR')).fundingPaymentInstructions[0].accountOrWalletInfo.reference).toBe(eurReference);

    const [alphaUsd, betaUsd] = [await accountOf(alpha, alphaCustomer, 'USD'), await accountOf(beta, betaCustomer, 'USD')];
    const numbers = [alphaUsd, betaUsd].map((a) => a.fundingPaymentInstructions[0].accountOrWalletInfo);
    for (const info of numbers) expect(info).toMatchObject({ accountType: 'USD_ACCOUNT', routingNumber: '021000021', bankName: 'Sponsor Bank NA', accountNumber: expect.stringMatching(/^88000000\d\d$/) });
    expect(numbers[0].accountNumber).not.toBe(numbers[1].accountNumber);
    expect(numbers[0].reference).not.toBe(numbers[1].reference);

    // The platform's own EUR account too; GBP has no deposit account: none, as before.
    const platformAccounts = (await t.call('GET', '/platform/internal-accounts', { auth: alpha.production })).body.data as any[];
    expect(platformAccounts.find((a) => a.balance.currency.code === 'EUR').fundingPaymentInstructions).toEqual([expect.objectContaining({ isPlatformAccount: true, accountOrWalletInfo: expect.objectContaining({ iban: FBO_IBAN }) })]);
    expect((await accountOf(alpha, alphaCustomer, 'GBP')).fundingPaymentInstructions).toEqual([]);
  });

  let creditedId: string;
  it('a camt.054 credit with the reference (spaced, lower case) credits the account once, as an INCOMING transaction with its webhooks; the same file or the same entry in another file: no second credit', async () => {
    const spaced = `invoice 7 ${eurReference.toLowerCase().replace(/(.{4})/g, '$1 ')}`;
    const file = camt054Credits(FBO_IBAN, [{ amount: 12_500, currency: 'EUR', bankReference: 'BANK-CRDT-1', remittance: spaced, debtorName: 'Jean Dupont' }]);
    const first = await importFile('camt054-credit.xml', file);
    expect(first).toMatchObject({ status: 200, body: { duplicate: false, entries: 1, outcomes: 1, exceptions: 0 } });
    const [tx] = await eventually(async () => {
      const list = await incoming(alpha);
      return list.length > 0 ? list : undefined;
    }, { what: 'the incoming transaction' });
    creditedId = tx.id;
    const eurId = (await accountOf(alpha, alphaCustomer, 'EUR')).id;
    const done = await completed(alpha, creditedId);
    expect(done).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', customerId: alphaCustomer, destination: { accountId: eurId }, receivedAmount: { amount: 12_500 } });
    expect(await balanceOf(alpha, alphaCustomer, 'EUR')).toBe(12_500);
    expect(await webhooksAbout(alpha, creditedId, 2)).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);

    expect((await importFile('camt054-credit-again.xml', file)).body).toMatchObject({ duplicate: true });
    // The bank reports the same entry again in the next day's notification (other bytes, same AcctSvcrRef).
    const again = await importFile('camt054-next.xml', camt054Credits(FBO_IBAN, [{ amount: 12_500, currency: 'EUR', bankReference: 'BANK-CRDT-1', remittance: eurReference }]));
    expect(again.body).toMatchObject({ duplicate: false, outcomes: 0, exceptions: 0 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await balanceOf(alpha, alphaCustomer, 'EUR')).toBe(12_500);
    expect((await incoming(alpha)).map((x) => x.id)).toEqual([creditedId]);
    await expectLedgerClean(t);
  });

  it("a credit to a virtual account number lands on that account's platform, not another's", async () => {
    const betaUsd = await accountOf(beta, betaCustomer, 'USD');
    const number = betaUsd.fundingPaymentInstructions[0].accountOrWalletInfo.accountNumber;
    const res = await importFile('camt054-usd.xml', camt054Credits(FBO_IBAN, [{ amount: 4_200, currency: 'USD', bankReference: 'BANK-USD-1', creditorAccount: number }]));
    expect(res.body).toMatchObject({ outcomes: 1, exceptions: 0 });
    await eventually(async () => ((await balanceOf(beta, betaCustomer, 'USD')) === 4_200 ? true : undefined), { what: "beta's USD credit" });
    expect(await balanceOf(alpha, alphaCustomer, 'USD')).toBe(0);
    expect((await incoming(alpha)).map((x) => x.id)).toEqual([creditedId]);
    const [betaTx] = await incoming(beta);
    expect(betaTx).toMatchObject({ customerId: betaCustomer, destination: { accountId: betaUsd.id } });
  });

  let unmatched: string;
  it('a credit naming no account is an UNMATCHED_CREDIT; assigned by a reviewer it credits once, audited; assigning again is a 409', async () => {
    const res = await importFile('camt054-unknown.xml', camt054Credits(FBO_IBAN, [{ amount: 3_000, currency: 'EUR', bankReference: 'BANK-CRDT-2', remittance: 'for Ana, thanks' }, { amount: 900, currency: 'EUR', bankReference: 'BANK-CRDT-3', remittance: 'PP0000000000' }]));
    expect(res.body).toMatchObject({ outcomes: 0, exceptions: 2 });
    const open = (await op('GET', '/rails/exceptions?status=OPEN&kind=UNMATCHED_CREDIT', viewer)).body.data as any[];
    expect(open.map((e) => e.detail.bankReference).sort()).toEqual(['BANK-CRDT-2||3000|EUR', 'BANK-CRDT-3||900|EUR']);
    unmatched = open.find((e) => e.detail.amount === 3_000).id;
    const eurId = (await accountOf(alpha, alphaCustomer, 'EUR')).id;

    expect((await op('POST', `/rails/exceptions/${encodeURIComponent(unmatched)}/assign`, viewer, { internalAccountId: eurId, reason: 'x' })).status).toBe(403);
    const usdId = (await accountOf(alpha, alphaCustomer, 'USD')).id;
    const wrongCurrency = await op('POST', `/rails/exceptions/${encodeURIComponent(unmatched)}/assign`, reviewer, { internalAccountId: usdId, reason: 'named Ana' });
    expect(wrongCurrency).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });
    expect((await op('POST', `/rails/exceptions/${encodeURIComponent(unmatched)}/assign`, reviewer, { reason: 'no account' })).status).toBe(400);

    const assigned = await op('POST', `/rails/exceptions/${encodeURIComponent(unmatched)}/assign`, reviewer, { internalAccountId: eurId, reason: 'remittance names Ana; confirmed by phone' });
    expect(assigned).toMatchObject({ status: 200, body: { status: 'RESOLVED', disposition: 'ASSIGNED', resolution: 'remittance names Ana; confirmed by phone', transactionId: expect.stringMatching(/^Transaction:/) } });
    await completed(alpha, assigned.body.transactionId);
    expect(await balanceOf(alpha, alphaCustomer, 'EUR')).toBe(15_500);
    const twice = await op('POST', `/rails/exceptions/${encodeURIComponent(unmatched)}/assign`, reviewer, { internalAccountId: eurId, reason: 'again' });
    expect(twice).toMatchObject({ status: 409, body: { code: 'RAIL_EXCEPTION_ALREADY_RESOLVED' } });
    expect(await balanceOf(alpha, alphaCustomer, 'EUR')).toBe(15_500);

    const audit = await eventually(async () => {
      const rows = (await op('GET', '/audit-events?action=rails.exception.assign', viewer)).body.data as any[];
      return rows?.length ? rows : undefined;
    }, { what: 'the assignment in the audit log' });
    expect(audit[0]).toMatchObject({ action: 'rails.exception.assign', target: { id: unmatched }, platformId: alpha.platformId, reason: 'remittance names Ana; confirmed by phone' });
    await expectLedgerClean(t);
  });

  it('an unmatched credit marked to be returned is resolved TO_BE_RETURNED with the reason; nothing is credited', async () => {
    const open = (await op('GET', '/rails/exceptions?status=OPEN&kind=UNMATCHED_CREDIT', viewer)).body.data as any[];
    const [left] = open;
    const returned = await op('POST', `/rails/exceptions/${encodeURIComponent(left.id)}/return`, reviewer, { reason: 'sender unknown: returned by SEPA return at the bank' });
    expect(returned).toMatchObject({ status: 200, body: { status: 'RESOLVED', disposition: 'TO_BE_RETURNED', resolution: 'sender unknown: returned by SEPA return at the bank' } });
    expect((await op('POST', `/rails/exceptions/${encodeURIComponent(left.id)}/assign`, reviewer, { internalAccountId: (await accountOf(alpha, alphaCustomer, 'EUR')).id, reason: 'late' })).status).toBe(409);
    expect(await balanceOf(alpha, alphaCustomer, 'EUR')).toBe(15_500);
    expect((await op('POST', `/rails/exceptions/RailException:nope/return`, reviewer, { reason: 'x' })).status).toBe(404);
  });
});
