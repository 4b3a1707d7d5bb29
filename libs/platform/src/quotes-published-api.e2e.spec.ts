import { priceFxQuote } from '@payments/money';
import { feeSchedule, SandboxRateSource } from '@payments/quoting';
import { eventually, http } from '@payments/testing';
import { internalAccountOf } from './test-quotes';
import { startTestPlatform, TestPlatform } from './test-platform';

const config = (code: string, minAmount: number, maxAmount: number) => ({ currencyCode: code, minAmount, maxAmount, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const codes = (data: { destinationCurrency: { code: string } }[]) => data.map((r) => r.destinationCurrency.code);

/** What a SENDING-locked quote of `amount` says at the rate window of `at`: the published rate's numbers must agree. */
function quotePricing(from: string, to: string, amount: number, at: string) {
  const rate = new SandboxRateSource().rate(from, to, at)!;
  const priced = priceFxQuote({ sendingCurrency: from, receivingCurrency: to, midRate: rate.midRate, sendingPerBtc: rate.sourcePerBtc, fees: feeSchedule(from), lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount });
  if (!priced.ok) throw new Error(priced.error.message);
  return priced.value;
}

/**
 * The published API's GET /exchange-rates and POST /quotes fields, as its clients send and read them: the CLI repeats
 * `destinationCurrency`, the SDK comma-joins it; `sendingAmount` prices every corridor as a quote would.
 */
describe('exchange rates and quotes in the published API\'s shape (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;
  let usd: string;
  let eur: string;

  beforeAll(async () => {
    t = await startTestPlatform({ SANDBOX_TIME_SCALE: '0.001' });
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD', 100, 5_000_000), config('EUR', 1, 1_000_000_000)] } })).status).toBe(200);
    const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Ada Published', region: 'US' } })).body;
    usd = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'USD');
    eur = await internalAccountOf(t, t.tenant.sandbox, customer.id, 'EUR');
    expect((await t.call('POST', `/sandbox/internal-accounts/${usd}/fund`, { body: { amount: 1_000_000 } })).status).toBe(200);
  });
  afterAll(() => t?.stop());

  describe('GET /exchange-rates', () => {
    it('takes destinationCurrency repeated (CLI) or comma-joined (SDK), in the order given, without duplicates', async () => {
      const repeated = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&destinationCurrency=EUR');
      expect(repeated.status).toBe(200);
      expect(codes(repeated.body.data)).toEqual(['MXN', 'EUR']);
      const joined = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN,EUR');
      expect(joined.status).toBe(200);
      expect(codes(joined.body.data)).toEqual(['MXN', 'EUR']);
      expect(codes((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN%2C%20EUR&destinationCurrency=GBP,MXN')).body.data)).toEqual(['MXN', 'EUR', 'GBP']);
      expect(codes((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR')).body.data)).toEqual(['EUR']);
    });

    it('refuses a bad destinationCurrency list naming the field', async () => {
      for (const query of ['destinationCurrency=MXN,eur', 'destinationCurrency=MXN,,EUR', 'destinationCurrency=', 'destinationCurrency[a]=MXN']) {
        const res = await t.call('GET', `/exchange-rates?sourceCurrency=USD&${query}`);
        expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 'INVALID_INPUT' });
        // `name[key]` is not an array form: the query parser keeps it as its own (unknown) parameter.
        expect(res.body.details.errors.map((e: { field: string }) => e.field)).toContain(query.startsWith('destinationCurrency[') ? 'destinationCurrency[a]' : 'destinationCurrency');
      }
      expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN&destinationCurrency=E%00R')).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect((await t.call('GET', `/exchange-rates?sourceCurrency=USD&destinationCurrency=${Array(101).fill('EUR').join(',')}`)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN,XYZ')).body).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
      expect(codes((await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=MXN,USD')).body.data)).toEqual(['MXN']); // the source passed over
    });

    it('prices each corridor for sendingAmount exactly as a SENDING quote of that amount, and keeps our own fields', async () => {
      const res = await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR,MXN&sendingAmount=250000');
      expect(res.status).toBe(200);
      for (const r of res.body.data) {
        const p = quotePricing('USD', r.destinationCurrency.code, 250_000, r.updatedAt);
        expect(r).toMatchObject({
          sourceCurrency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
          sendingAmount: 250_000,
          receivingAmount: p.totalReceivingAmount,
          exchangeRate: p.exchangeRate,
          fees: { fixed: 25, total: p.feesIncluded },
          minSendingAmount: 100,
          maxSendingAmount: 5_000_000,
          // ours, beside the published ones
          variableFeeRate: 0.5, fixedFee: 25, platformVariableFeeRate: 0, platformFixedFee: 0, counterpartyFixedFee: 0,
        });
        expect(r.rate * r.inverseRate).toBeCloseTo(1, 9);
        expect(Date.parse(r.updatedAt)).toBeLessThanOrEqual(Date.now());
        expect(Date.parse(r.expiresAt)).toBeGreaterThan(Date.parse(r.updatedAt));
      }
      expect(res.body.data.map((r: { destinationPaymentRail: string }) => r.destinationPaymentRail)).toEqual(['SEPA_INSTANT', 'SPEI']);
    });

    it('defaults sendingAmount to 10000, and agrees with a quote created in the same rate window', async () => {
      const [r] = (await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR')).body.data;
      expect(r).toMatchObject({ sendingAmount: 10_000, fees: { fixed: 25, total: 75 } });
      const q = (await t.call('POST', '/quotes', { body: { source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000 } })).body;
      const [again] = (await t.call('GET', '/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR')).body.data;
      if (again.updatedAt === r.updatedAt && Date.parse(q.createdAt) < Date.parse(r.expiresAt)) {
        expect(r).toMatchObject({ receivingAmount: q.totalReceivingAmount, exchangeRate: q.exchangeRate, fees: { total: q.feesIncluded } });
      }
    });

    it('a sending currency the platform has not configured shows no supported amounts; an amount below the fees receives 0', async () => {
      const [r] = (await t.call('GET', '/exchange-rates?sourceCurrency=GBP&destinationCurrency=EUR&sendingAmount=5')).body.data;
      expect(r).toMatchObject({ sendingAmount: 5, receivingAmount: 0, minSendingAmount: 0, maxSendingAmount: 0 });
      expect(r.exchangeRate).toBeGreaterThan(0);
      expect(r.fees.total).toBeGreaterThan(5);
    });

    it('validates sendingAmount', async () => {
      for (const amount of ['abc', '-1', '1.5', '1e3', '', '9007199254740992']) {
        const res = await t.call('GET', `/exchange-rates?sourceCurrency=USD&sendingAmount=${amount}`);
        expect({ amount, status: res.status, field: res.body.details?.errors?.[0]?.field }).toEqual({ amount, status: 400, field: 'sendingAmount' });
      }
      expect((await t.call('GET', '/exchange-rates?sourceCurrency=USD&sendingAmount=0&destinationCurrency=EUR')).body.data[0]).toMatchObject({ sendingAmount: 0, receivingAmount: 0 });
    });
  });

  it('documents the array parameter, sendingAmount and the published fields in GET /openapi.json', async () => {
    const document = (await http<any>('GET', `${new URL(t.url).origin}/openapi.json`)).body;
    const [path] = Object.keys(document.paths).filter((p) => p.endsWith('/exchange-rates'));
    const parameters = Object.fromEntries(document.paths[path].get.parameters.map((p: { name: string; schema: unknown }) => [p.name, p.schema]));
    expect(parameters.destinationCurrency).toMatchObject({ type: 'array', items: { type: 'string', pattern: '^[A-Z]{3,5}$' } });
    expect(parameters.sendingAmount).toMatchObject({ type: 'integer', minimum: 0 });
    expect(document.components.schemas.ExchangeRate.required).toEqual(expect.arrayContaining(['sendingAmount', 'receivingAmount', 'exchangeRate', 'fees', 'minSendingAmount', 'maxSendingAmount', 'destinationPaymentRail', 'updatedAt', 'rate', 'expiresAt']));
    const request = document.components.schemas.CreateQuoteRequest.properties;
    expect(request.purposeOfPayment.enum).toContain('FAMILY_SUPPORT');
    expect(request.remittanceInformation).toMatchObject({ type: 'string', maxLength: 80 });
    expect(request.senderCustomerInfo).toMatchObject({ type: 'object' });
  });

  describe('POST /quotes', () => {
    const body = (extra: Record<string, unknown>) => ({ source: { sourceType: 'ACCOUNT', accountId: usd }, destination: { destinationType: 'ACCOUNT', accountId: eur }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 10_000, ...extra });
    const published = { purposeOfPayment: 'FAMILY_SUPPORT', remittanceInformation: 'Invoice 12345', senderCustomerInfo: { FULL_NAME: 'Jane Sender', NATIONALITY: 'FR' } };

    it('accepts purposeOfPayment, remittanceInformation and senderCustomerInfo, keeps them on the quote and hands them to payments', async () => {
      const res = await t.call('POST', '/quotes', { body: body(published) });
      expect(res.status).toBe(201);
      // The published Quote carries none of the three: the answer stays in its shape.
      for (const field of Object.keys(published)) expect(res.body).not.toHaveProperty(field);
      const events = async (type: string) =>
        (await t.platform.quoting.host.dataSource.query(`SELECT data FROM events WHERE stream_id = $1 AND type = $2`, [res.body.id, type])).map((row: { data: unknown }) => row.data);
      expect((await events('QuoteCreated.v1'))[0]).toMatchObject(published);
      expect((await t.call('POST', `/quotes/${res.body.id}/execute`)).body.status).toBe('PROCESSING');
      const [executed] = await events('QuoteExecuted.v1');
      expect(executed).toMatchObject(published);
      expect(executed.quote).not.toHaveProperty('purposeOfPayment');
      await eventually(async () => ((await t.call('GET', `/quotes/${res.body.id}`)).body.status === 'COMPLETED' ? true : undefined), { what: 'quote COMPLETED', timeoutMs: 20_000 });
    });

    it('validates them against the published enum and shapes', async () => {
      const refused = async (extra: Record<string, unknown>, field: string) => {
        const res = await t.call('POST', '/quotes', { body: body(extra) });
        expect({ field, status: res.status, code: res.body.code }).toEqual({ field, status: 400, code: 'INVALID_INPUT' });
        expect(res.body.details.errors.map((e: { field: string }) => e.field)).toContain(field);
      };
      await refused({ purposeOfPayment: 'BRIBE' }, 'purposeOfPayment');
      await refused({ purposeOfPayment: null }, 'purposeOfPayment');
      await refused({ remittanceInformation: 'x'.repeat(81) }, 'remittanceInformation');
      await refused({ remittanceInformation: 42 }, 'remittanceInformation');
      await refused({ senderCustomerInfo: 'Jane' }, 'senderCustomerInfo');
      await refused({ senderCustomerInfo: ['Jane'] }, 'senderCustomerInfo');
      await refused({ senderCustomerInfo: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`F${i}`, 'x'])) }, 'senderCustomerInfo');
      expect((await t.call('POST', '/quotes', { body: body({ remittanceInformation: 'x'.repeat(80), senderCustomerInfo: { POSTAL_ADDRESS: { line1: '1 Main St', country: 'FR' } } }) })).status).toBe(201);
    });
  });
});
