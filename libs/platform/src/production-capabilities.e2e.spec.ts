import { Mode } from '@payments/contracts';
import { usdBankAccount } from './test-payments';
import { productionState, settledProductionState } from './test-production-state';
import { approveInProduction, individualBody } from './test-kyc';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform, TestTenant } from './test-platform';
import { setProductionRates } from './test-rates';
import { trust, untilStatus } from './test-external-accounts';

const config = (currencyCode: string) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000_000, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const CURRENCIES = ['USD', 'EUR', 'USDC'].map(config);
const BASE_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** What one mode of the tenant holds for the calls below. */
interface ModeFixture {
  auth: string;
  customerId: string;
  usd: string;
  eur: string;
  usdc: string;
  external: string;
  /** A customer in an SCA region (DE) without a passkey, and its accounts. */
  euCustomerId: string;
  euEur: string;
  euUsd: string;
}

/**
 * Production answers honestly (issue #28): an operation whose capability this deployment does not have in production
 * (a payout or pull rail, collection details, a UMA client, an SMS provider, a card issuer, a stablecoin provider, a
 * contact delivery gateway, a configured network fee) answers 501 NOT_IMPLEMENTED naming what to configure
 * (`details.capability`, `details.configure`) before anything is recorded: the tenant's production rows (events,
 * read models, ledger, webhooks, claims) are byte for byte what they were. The same calls work in the sandbox.
 */
describe('production capabilities that are not configured (HTTP)', () => {
  let t: TestPlatform;
  let tenant: TestTenant & { platformId?: string };
  let production: ModeFixture;
  let sandbox: ModeFixture;

  async function fixtureOf(auth: string, mode: Mode): Promise<ModeFixture> {
    expect((await t.call('PATCH', '/config', { auth, body: { supportedCurrencies: CURRENCIES } })).status).toBe(200);
    const customer = await t.call('POST', '/customers', { auth, body: individualBody('Una States', { region: 'US', email: `una.${mode.toLowerCase()}@example.com`, umaAddress: `$una.${mode.toLowerCase()}@pay.example.com`, currencies: ['USD', 'EUR', 'USDC'] }) });
    expect(customer.body).toMatchObject({ id: expect.any(String) });
    const eu = await t.call('POST', '/customers', { auth, body: individualBody('Eva Union', { region: 'DE', email: 'eva@example.de', phoneNumber: '+4915112345678', umaAddress: `$eva.${mode.toLowerCase()}@pay.example.com` }) });
    expect(eu.body).toMatchObject({ id: expect.any(String) });
    // Production moves money (and quotes) only for APPROVED customers: both are, so what is refused is the capability.
    if (mode === 'PRODUCTION') for (const id of [customer.body.id, eu.body.id]) await approveInProduction(t, auth, id);
    const external = await t.call('POST', '/customers/external-accounts', { auth, body: { customerId: customer.body.id, ...usdBankAccount('789') } });
    expect(external.status).toBe(201);
    const usd = await internalAccountOf(t, auth, customer.body.id, 'USD');
    if (mode === 'SANDBOX') {
      expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { auth, body: { amount: 1_000_000 } })).status).toBe(200);
      await untilStatus(t, auth, external.body.id, 'ACTIVE');
    }
    return {
      auth,
      customerId: customer.body.id,
      usd,
      eur: await internalAccountOf(t, auth, customer.body.id, 'EUR'),
      usdc: await internalAccountOf(t, auth, customer.body.id, 'USDC'),
      external: external.body.id,
      euCustomerId: eu.body.id,
      euEur: await internalAccountOf(t, auth, eu.body.id, 'EUR'),
      euUsd: await internalAccountOf(t, auth, eu.body.id, 'USD'),
    };
  }

  beforeAll(async () => {
    // No CONTACT_DELIVERY_URL, no BRALE_API_URL, no card issuer, no rails: a deployment as it comes.
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    tenant = await t.createTenant('Going live');
    // Production prices only from a configured source: the rates are there, so what is refused here is something else.
    await setProductionRates(t, [['USD', 'EUR', '0.9'], ['USD', 'MXN', '17.25']]);
    production = await fixtureOf(tenant.production, 'PRODUCTION');
    sandbox = await fixtureOf(tenant.sandbox, 'SANDBOX');
  }, 120_000);
  afterAll(() => t?.stop());

  const quote = (f: ModeFixture, body: Record<string, unknown>) => t.call('POST', '/quotes', { auth: f.auth, body: { lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 100_000, ...body } });
  const accountQuote = (f: ModeFixture, from: string, to: string) => quote(f, { source: { sourceType: 'ACCOUNT', accountId: from }, destination: { destinationType: 'ACCOUNT', accountId: to } });

  /** Each refused production call, the capability its 501 names, and the same call in the sandbox (which works). */
  const calls: [string, string, (f: ModeFixture) => Promise<{ status: number; body: any }>][] = [
    ['a quote paying out to an external account', 'PAYOUT_RAIL', (f) => accountQuote(f, f.eur, f.external)],
    ['a quote from REALTIME_FUNDING', 'COLLECTION_DETAILS', (f) => quote(f, { source: { sourceType: 'REALTIME_FUNDING', customerId: f.customerId, currency: 'USD' }, destination: { destinationType: 'ACCOUNT', accountId: f.eur } })],
    ['a quote of a customer who must pass SCA and has no passkey', 'SMS_PROVIDER', (f) => accountQuote(f, f.euEur, f.euUsd)],
    ['a transfer-out', 'PAYOUT_RAIL', (f) => t.call('POST', '/transfer-out', { auth: f.auth, body: { source: { accountId: f.usd }, destination: { accountId: f.external }, amount: 1 } })],
    ['a transfer-in', 'PULL_RAIL', (f) => t.call('POST', '/transfer-in', { auth: f.auth, body: { source: { accountId: f.external }, destination: { accountId: f.usd }, amount: 1 } })],
    ['a contact verification code', 'CONTACT_DELIVERY', (f) => t.call('POST', `/customers/${f.euCustomerId}/verify-email`, { auth: f.auth })],
  ];

  it.each(calls)('%s: 501 naming %s in production, nothing recorded; the sandbox carries it out', async (_what, capability, call) => {
    const before = await settledProductionState(t.database.url, tenant.platformId!);
    const refused = await call(production);
    expect(refused.status).toBe(501);
    expect(refused.body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED', message: expect.any(String), details: { capability, configure: expect.any(String) } });
    expect(await productionState(t.database.url, tenant.platformId!)).toEqual(before);
    const carried = await call(sandbox);
    if (![200, 201, 204].includes(carried.status)) throw new Error(`the sandbox refused it: ${carried.status} ${JSON.stringify(carried.body)}`);
  });

  it('a quote to a UMA address: 501 (no UMA protocol client) before the lookup is even asked for; the sandbox pays its receivers', async () => {
    const before = await settledProductionState(t.database.url, tenant.platformId!);
    const refused = await quote(production, { source: { sourceType: 'ACCOUNT', accountId: production.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$bob@wallet.example.com', currency: 'USD' }, lookupId: 'Lookup:0190f5a0-0000-7000-8000-000000000000' });
    expect(refused.body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED', details: { capability: 'UMA_PROTOCOL_CLIENT' } });
    expect((await t.call('GET', `/receiver/uma/${encodeURIComponent('$bob@wallet.example.com')}`, { auth: production.auth })).body).toMatchObject({ status: 501, details: { capability: 'UMA_PROTOCOL_CLIENT' } });
    expect(await productionState(t.database.url, tenant.platformId!)).toEqual(before);
    const lookup = (await t.call('GET', `/receiver/uma/${encodeURIComponent('$success.eur@sandbox.uma.money')}`, { auth: sandbox.auth })).body;
    const paid = await quote(sandbox, { source: { sourceType: 'ACCOUNT', accountId: sandbox.usd }, destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.eur@sandbox.uma.money', currency: 'EUR' }, lookupId: lookup.lookupId });
    expect(paid.status).toBe(201);
  });

  it('a card, a stablecoin provider link, an untrust code: 501 naming the issuer, BRALE_API_URL, the SMS provider; nothing recorded', async () => {
    await trust(t, production.external);
    const before = await settledProductionState(t.database.url, tenant.platformId!);
    const card = await t.call('POST', '/cards', { auth: production.auth, body: { cardholderId: production.customerId, form: 'VIRTUAL', fundingSources: [production.usd] } });
    expect(card.body).toMatchObject({ status: 501, details: { capability: 'CARD_ISSUER' } });
    const link = await t.call('POST', '/stablecoin-provider-accounts', { auth: production.auth, headers: { 'Idempotency-Key': 'link-once' }, body: { provider: 'BRALE', apiClientId: 'prod', apiClientSecret: 'prod-secret' } });
    expect(link.body).toMatchObject({ status: 501, details: { capability: 'STABLECOIN_PROVIDER', configure: 'BRALE_API_URL' } });
    const untrust = await t.call('POST', `/customers/external-accounts/${production.external}/untrust`, { auth: production.auth });
    expect(untrust.body).toMatchObject({ status: 501, details: { capability: 'SMS_PROVIDER' } });
    expect(await productionState(t.database.url, tenant.platformId!)).toEqual(before);
  });

  it('a crypto withdrawal fee estimate without a configured network fee: 501 naming the operator API path; the sandbox prices it', async () => {
    const body = (f: ModeFixture) => ({ internalAccountId: f.usdc, currency: 'USDC', cryptoNetwork: 'BASE', amount: 10_000_000, destinationAddress: BASE_ADDRESS });
    const refused = await t.call('POST', '/crypto/estimate-withdrawal-fee', { auth: production.auth, body: body(production) });
    expect(refused.body).toMatchObject({
      status: 501,
      code: 'NOT_IMPLEMENTED',
      message: expect.stringContaining('PUT /operator/v1/fees/network'),
      details: { capability: 'WITHDRAWAL_NETWORK_FEE', configure: 'PUT /operator/v1/fees/network', currency: 'USDC', cryptoNetwork: 'BASE' },
    });
    expect((await t.call('POST', '/crypto/estimate-withdrawal-fee', { auth: sandbox.auth, body: body(sandbox) })).body).toMatchObject({ networkFee: 10_000, applicationFee: 10_000 });
  });

  it('production still does what needs no outside capability: a quote between internal accounts', async () => {
    const created = await accountQuote(production, production.usd, production.eur);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'PENDING', sendingCurrency: { code: 'USD' }, receivingCurrency: { code: 'EUR' } });
  });
});
