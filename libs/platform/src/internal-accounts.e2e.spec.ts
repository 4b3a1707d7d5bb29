import { checkLedger } from '@payments/accounts';
import { eventually } from '@payments/testing';
import { startTestPlatform, TestPlatform } from './test-platform';

const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));

describe('internal accounts and sandbox funding', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform();
    await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies(['USD', 'EUR', 'USDC']) } });
  });
  afterEach(async () => expect(await checkLedger(t.platform.accounts.host.dataSource, t.platform.accounts.host.store)).toEqual([]));
  afterAll(() => t.stop());

  const accountsOf = async (customerId: string) =>
    eventually(async () => {
      const page = (await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body;
      return page.data.length === 3 ? page : undefined;
    }, { what: 'internal accounts opened from CustomerCreated.v1' });

  it('opens one internal account per configured currency for a new customer, with funding instructions', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada' } })).body;
    const page = await accountsOf(customer.id);
    expect(page.data.map((a: { balance: { currency: { code: string } } }) => a.balance.currency.code).sort()).toEqual(['EUR', 'USD', 'USDC']);
    const usd = page.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD');
    expect(usd).toMatchObject({ id: expect.stringMatching(/^InternalAccount:/), customerId: customer.id, type: 'INTERNAL_FIAT', status: 'ACTIVE', balance: { amount: 0 }, totalBalance: { amount: 0 } });
    // paymentRails (required by the published Payment*AccountInfo): the rails external accounts of the type answer.
    expect(usd.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'USD_ACCOUNT', routingNumber: '021000021', reference: expect.stringMatching(/^PP[0-9A-F]{10}$/), paymentRails: ['ACH', 'WIRE', 'RTP', 'FEDNOW'] });
    const eur = page.data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'EUR');
    expect(eur.fundingPaymentInstructions[0].accountOrWalletInfo.iban).toMatch(/^DE\d{20}$/);
    expect(eur.fundingPaymentInstructions[0].accountOrWalletInfo.paymentRails).toEqual(['SEPA', 'SEPA_INSTANT']);
    const usdc = page.data.find((a: { type: string }) => a.type === 'INTERNAL_CRYPTO');
    expect(usdc.fundingPaymentInstructions[0].accountOrWalletInfo.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // Deterministic: the same account shows the same instructions on every read.
    expect((await accountsOf(customer.id)).data).toEqual(page.data);
  });

  it('lists the platform accounts for its configured currencies', async () => {
    const platform = await eventually(async () => {
      const res = (await t.call('GET', '/platform/internal-accounts')).body;
      return res.data?.length === 3 ? res : undefined;
    }, { what: 'platform accounts' });
    expect(platform.data.every((a: { customerId?: string; fundingPaymentInstructions: { isPlatformAccount: boolean }[] }) => !a.customerId && a.fundingPaymentInstructions[0].isPlatformAccount)).toBe(true);
    expect((await t.call('GET', '/platform/internal-accounts?currency=EUR')).body.data).toHaveLength(1);
  });

  it('funds an account in the sandbox through the ledger; not in production; never another tenant\'s', async () => {
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Funded' } })).body;
    const usd = (await accountsOf(customer.id)).data.find((a: { balance: { currency: { code: string } } }) => a.balance.currency.code === 'USD');
    const funded = await t.call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { body: { amount: 12_345 } });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ id: usd.id, balance: { amount: 12_345 }, totalBalance: { amount: 12_345 } });
    await t.call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { body: { amount: 5 } });
    expect((await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&currency=USD`)).body.data[0].balance.amount).toBe(12_350);

    for (const bad of [0, -5, 1.5, 100_000_000_001, '10']) {
      expect((await t.call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { body: { amount: bad } })).status).toBe(400);
    }
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { auth: t.tenant.production, body: { amount: 1 } })).status).toBe(404);
    const other = await t.createTenant();
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd.id}/fund`, { auth: other.sandbox, body: { amount: 1 } })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await t.call('POST', '/sandbox/internal-accounts/InternalAccount:00000000-0000-7000-8000-000000000000/fund', { body: { amount: 1 } })).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await t.call('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`, { auth: other.sandbox })).body.totalCount).toBe(0);
  });
});
