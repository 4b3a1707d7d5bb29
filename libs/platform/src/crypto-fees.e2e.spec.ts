import { basicAuth } from '@payments/testing';
import { createExternalAccount } from './test-external-accounts';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const config = (code: string, minAmount: number, maxAmount: number) => ({ currencyCode: code, minAmount, maxAmount, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const BASE_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const TRON_ADDRESS = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

describe('POST /crypto/estimate-withdrawal-fee (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let usdc: string;
  let btc: string;
  let usd: string;

  beforeAll(async () => {
    t = await startTestPlatform();
    const currencies = [config('USD', 1, 1_000_000_000), config('USDC', 1, 1e12), config('BTC', 1, 1e10)];
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: currencies } })).status).toBe(200);
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Chain Withdrawer', currencies: ['USD', 'USDC', 'BTC'] } })).body;
    usdc = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'USDC');
    btc = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'BTC');
    usd = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'USD');
  });
  afterAll(() => t?.stop());

  const estimate = (body: Record<string, unknown>, auth = t.tenant.sandbox) => t.call('POST', '/crypto/estimate-withdrawal-fee', { auth, body });
  const usdcOnBase = (extra: Record<string, unknown> = {}) => ({ internalAccountId: usdc, currency: 'USDC', cryptoNetwork: 'BASE', amount: 10_000_000, destinationAddress: BASE_ADDRESS, ...extra });

  it('estimates network and application fees; the net amount is the amount less both, exactly', async () => {
    const res = await estimate(usdcOnBase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ networkFee: 10_000, networkFeeAsset: 'ETH', applicationFee: 10_000, totalFee: 20_000, netAmount: 9_980_000 });
    const odd = (await estimate(usdcOnBase({ amount: 1_234_567, cryptoNetwork: 'SOLANA', destinationAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' }))).body;
    expect(odd).toEqual({ networkFee: 5_000, networkFeeAsset: 'SOL', applicationFee: 1_235, totalFee: 6_235, netAmount: 1_228_332 });
  });

  it('prices BTC withdrawals on Bitcoin, Lightning and Spark in satoshis', async () => {
    const btcBody = (cryptoNetwork: string, destinationAddress: string) => ({ internalAccountId: btc, currency: 'BTC', cryptoNetwork, amount: 100_000, destinationAddress });
    expect((await estimate(btcBody('BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'))).body).toEqual({ networkFee: 2_000, networkFeeAsset: 'BTC', applicationFee: 100, totalFee: 2_100, netAmount: 97_900 });
    expect((await estimate(btcBody('LIGHTNING', 'satoshi@wallet.example.com'))).body).toMatchObject({ networkFee: 10, totalFee: 110, netAmount: 99_890 });
    expect((await estimate(btcBody('SPARK', 'spark1pgss9z2gpzrnhztwy8ffs44x67angma38sqewwddhxlsk65t0c5d5576quly2j'))).body).toMatchObject({ networkFee: 5, netAmount: 99_895 });
  });

  it('refuses a network the currency is not on, or an address that network cannot receive at (400 INVALID_INPUT)', async () => {
    expect((await estimate(usdcOnBase({ cryptoNetwork: 'TRON', destinationAddress: TRON_ADDRESS }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'cryptoNetwork' }] } });
    expect((await estimate(usdcOnBase({ cryptoNetwork: 'DOGECOIN' }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await estimate(usdcOnBase({ destinationAddress: TRON_ADDRESS }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors: [{ field: 'destinationAddress' }] } });
    expect((await estimate(usdcOnBase({ destinationAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }))).body.message).toMatch(/EIP-55/);
    expect((await estimate(usdcOnBase({ destinationAddress: '0x0000000000000000000000000000000000000000' }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('refuses a fiat currency, or one the account does not hold (400 INVALID_CURRENCY)', async () => {
    expect((await estimate(usdcOnBase({ currency: 'USDT', cryptoNetwork: 'POLYGON' }))).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY', message: expect.stringContaining('USDC') });
    expect((await estimate(usdcOnBase({ internalAccountId: usd, currency: 'USD' }))).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
    expect((await estimate(usdcOnBase({ internalAccountId: usd }))).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY', message: expect.stringContaining('USD') });
  });

  it('refuses an amount the fees would eat (400 AMOUNT_BELOW_FEES) and malformed amounts (400 INVALID_INPUT)', async () => {
    expect((await estimate(usdcOnBase({ amount: 10_010 }))).body).toMatchObject({ status: 400, code: 'AMOUNT_BELOW_FEES', details: { networkFee: 10_000 } });
    expect((await estimate(usdcOnBase({ amount: 10_012 }))).body).toEqual({ networkFee: 10_000, networkFeeAsset: 'ETH', applicationFee: 11, totalFee: 10_011, netAmount: 1 });
    for (const amount of [0, -5, 1.5, '100', Number.MAX_SAFE_INTEGER + 2, null]) {
      expect((await estimate(usdcOnBase({ amount }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    }
    expect((await estimate({ internalAccountId: usdc })).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect((await estimate(usdcOnBase({ extra: true }))).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
  });

  it('answers 404 for an internal account that is not this platform\'s (or mode\'s), an external account, or none', async () => {
    const other = await t.createTenant('Fee stranger');
    expect((await estimate(usdcOnBase(), other.sandbox)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await estimate(usdcOnBase(), t.tenant.production)).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await estimate(usdcOnBase({ internalAccountId: 'InternalAccount:00000000-0000-7000-8000-000000000000' }))).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
    expect((await estimate(usdcOnBase({ internalAccountId: await createExternalAccount(t, t.tenant.sandbox) }))).body).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
  });

  it('needs credentials (401) and VIEW (403); changes nothing', async () => {
    expect((await estimate(usdcOnBase(), '')).body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const payer = (await t.call('POST', '/tokens', { body: { name: 'fee-payer', permissions: ['TRANSACT'] } })).body;
    expect((await estimate(usdcOnBase(), basicAuth(payer.clientId, payer.clientSecret))).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const viewer = (await t.call('POST', '/tokens', { body: { name: 'fee-viewer', permissions: ['VIEW'] } })).body;
    expect((await estimate(usdcOnBase(), basicAuth(viewer.clientId, viewer.clientSecret))).status).toBe(200);
    const balance = (await t.call('GET', `/customers/internal-accounts?currency=USDC`)).body.data.find((a: { id: string }) => a.id === usdc).balance;
    expect(balance.amount).toBe(0);
  });
});
