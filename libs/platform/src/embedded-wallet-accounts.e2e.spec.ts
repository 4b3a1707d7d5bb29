import { checkLedger } from '@payments/accounts';
import { eventually } from '@payments/testing';
import { untilTransaction } from './test-payments';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const currencies = (codes: string[]) => codes.map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] }));
const USDB = { code: 'USDB', name: 'USDB', symbol: 'USDB', decimals: 6 };

interface Account {
  id: string;
  type: string;
  balance: { amount: number; currency: { code: string } };
}

/**
 * Embedded Wallets ("Global Accounts"): "A Global Account is provisioned automatically whenever a customer is created
 * on a platform that has USDB in its supported currencies … Fetch it by filtering the customer's internal accounts
 * by type=EMBEDDED_WALLET" (published docs, global-accounts/walkthrough.mdx).
 */
describe('Embedded Wallet internal accounts', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies(['USD', 'USDB']) } })).status).toBe(200);
  });
  afterEach(async () => expect(await checkLedger(t.platform.accounts.host.dataSource, t.platform.accounts.host.store)).toEqual([]));
  afterAll(() => t?.stop());

  const list = async (auth: string, query: string): Promise<Account[]> => (await t.call('GET', `/customers/internal-accounts?${query}`, { auth })).body.data;
  const of = (customerId: string) => `customerId=${encodeURIComponent(customerId)}`;
  const customer = async (auth: string, body: Record<string, unknown> = {}): Promise<string> => {
    const created = await t.call('POST', '/customers', { auth, body: { customerType: 'INDIVIDUAL', fullName: 'Wallet Holder', ...body } });
    expect(created.status).toBe(201);
    return created.body.id;
  };
  /** The customer's Embedded Wallets once its USD account is open (both come from the same CustomerCreated.v1). */
  const walletsOf = async (auth: string, customerId: string): Promise<Account[]> => {
    await internalAccountOf(t, auth, customerId, 'USD');
    return eventually(async () => {
      const wallets = await list(auth, `${of(customerId)}&type=EMBEDDED_WALLET`);
      return wallets.length > 0 ? wallets : undefined;
    }, { what: `Embedded Wallet of ${customerId}` });
  };

  it('a customer of a USDB platform gets exactly one EMBEDDED_WALLET account in USDB, listed by the type filter, balance 0', async () => {
    // Currencies defaulted (the platform's: USD and USDB), and currencies without USDB: either way one Global Account.
    for (const body of [{}, { currencies: ['USD'] }, { currencies: ['USDB', 'USD'] }]) {
      const customerId = await customer(t.tenant.sandbox, body);
      const [wallet, ...more] = await walletsOf(t.tenant.sandbox, customerId);
      expect(more).toEqual([]);
      expect(wallet).toMatchObject({
        id: expect.stringMatching(/^InternalAccount:/),
        customerId,
        type: 'EMBEDDED_WALLET',
        status: 'ACTIVE',
        balance: { amount: 0, currency: USDB },
        totalBalance: { amount: 0, currency: USDB },
        fundingPaymentInstructions: [],
      });
      const all = await list(t.tenant.sandbox, of(customerId));
      expect(all.map((a) => [a.type, a.balance.currency.code]).sort()).toEqual([['EMBEDDED_WALLET', 'USDB'], ['INTERNAL_FIAT', 'USD']]);
      expect(await list(t.tenant.sandbox, `${of(customerId)}&type=INTERNAL_CRYPTO`)).toEqual([]);
      expect((await list(t.tenant.sandbox, `${of(customerId)}&currency=USDB`)).map((a) => a.id)).toEqual([wallet.id]);
    }
    // The platform's own USDB account is an ordinary crypto account, not an Embedded Wallet.
    expect((await t.call('GET', '/platform/internal-accounts?type=EMBEDDED_WALLET')).body.data).toEqual([]);
    const platformUsdb = await eventually(async () => (await t.call('GET', '/platform/internal-accounts?currency=USDB')).body.data?.[0], { what: 'platform USDB account' });
    expect(platformUsdb).toMatchObject({ type: 'INTERNAL_CRYPTO', balance: { currency: USDB } });
  });

  it('the sandbox fund endpoint credits the Embedded Wallet', async () => {
    const customerId = await customer(t.tenant.sandbox);
    const [wallet] = await walletsOf(t.tenant.sandbox, customerId);
    // walkthrough.mdx step 4: 1000000000 is 1,000.00 USDB.
    const funded = await t.call('POST', `/sandbox/internal-accounts/${wallet.id}/fund`, { body: { amount: 1_000_000_000 } });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ id: wallet.id, type: 'EMBEDDED_WALLET', balance: { amount: 1_000_000_000, currency: USDB }, totalBalance: { amount: 1_000_000_000 } });
    expect((await list(t.tenant.sandbox, `${of(customerId)}&type=EMBEDDED_WALLET`))[0].balance.amount).toBe(1_000_000_000);
    // USDB leaves a Global Account through a quote, never by an on-chain withdrawal.
    const spark = 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j';
    const estimate = await t.call('POST', '/crypto/estimate-withdrawal-fee', { body: { internalAccountId: wallet.id, currency: 'USDB', cryptoNetwork: 'SPARK', amount: 1_000_000, destinationAddress: spark } });
    expect(estimate.body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY', details: { errors: [{ field: 'currency' }] } });
  });

  it('a quote with the Embedded Wallet as destination converts USD into USDB at par and credits it', async () => {
    const customerId = await customer(t.tenant.sandbox);
    const [wallet] = await walletsOf(t.tenant.sandbox, customerId);
    const usd = await internalAccountOf(t, t.tenant.sandbox, customerId, 'USD');
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 10_000 } })).status).toBe(200);
    await eventually(async () => ((await t.platform.payments.host.dataSource.query(`SELECT 1 FROM customers WHERE customer_id = $1`, [customerId])).length ? true : undefined), { what: 'payments knows the customer' });
    const quote = await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: wallet.id }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, immediatelyExecute: true } });
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({ sendingCurrency: { code: 'USD' }, receivingCurrency: USDB });
    // USD 100.00 less the 25-cent fixed and 0.5% variable fees, at 1 USDB per USD: 99.25 USDB.
    expect(quote.body.totalReceivingAmount).toBe(99_250_000);
    await untilTransaction(t, quote.body.transactionId, (x) => x.status === 'COMPLETED');
    expect((await list(t.tenant.sandbox, `${of(customerId)}&type=EMBEDDED_WALLET`))[0].balance.amount).toBe(99_250_000);
  });

  it('a production platform with USDB provisions it too; a platform without USDB provisions none, nor retroactively', async () => {
    const prod = t.tenant.production;
    expect((await t.call('PATCH', '/config', { auth: prod, body: { umaDomain: 'wallets.example.com', supportedCurrencies: currencies(['USD', 'USDB']) } })).status).toBe(200);
    expect(await walletsOf(prod, await customer(prod, { umaAddress: '$wallet.holder@wallets.example.com' }))).toHaveLength(1);

    const other = await t.createTenant('No USDB platform');
    const before = await customer(other.sandbox);
    await internalAccountOf(t, other.sandbox, before, 'USD');
    expect(await list(other.sandbox, `${of(before)}&type=EMBEDDED_WALLET`)).toEqual([]);
    expect((await list(other.sandbox, of(before))).map((a) => a.balance.currency.code)).toEqual(['USD']);

    // Adding USDB later: customers created from then on get one, the earlier one does not.
    expect((await t.call('PATCH', '/config', { auth: other.sandbox, body: { supportedCurrencies: currencies(['USD', 'USDB']) } })).status).toBe(200);
    expect(await walletsOf(other.sandbox, await customer(other.sandbox, { currencies: ['USD'] }))).toHaveLength(1);
    expect(await list(other.sandbox, `${of(before)}&type=EMBEDDED_WALLET`)).toEqual([]);
  });
});
