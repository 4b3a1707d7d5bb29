import { SandboxRateSource } from '@payments/quoting';
import { basicAuth, eventually } from '@payments/testing';
import { UMA_PROVIDERS } from '@payments/uma';
import { startTestPlatform, TestPlatform } from './test-platform';

const config = (code: string, minAmount: number, maxAmount: number) => ({ currencyCode: code, minAmount, maxAmount, requiredCounterpartyFields: [], enabledTransactionTypes: ['INCOMING', 'OUTGOING'] });
const receiver = (address: string) => `/receiver/uma/${encodeURIComponent(address)}`;
const LOOKUP_ID = /^Lookup:[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The sandbox mid rate of a pair at `at`: the lookup must show exactly this (the rate window may turn between calls). */
const midRateAt = (from: string, to: string, at: number) => Number(new SandboxRateSource().rate(from, to, new Date(at).toISOString())!.midRate);
const oneOfRates = (from: string, to: string, before: number, after: number) => [midRateAt(from, to, before), midRateAt(from, to, after)];

describe('UMA receiver lookups and providers (real PostgreSQL, HTTP)', () => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await startTestPlatform();
    expect((await t.call('PATCH', '/config', { body: { supportedCurrencies: [config('USD', 100, 5_000_000), config('EUR', 50, 1_000_000_000)] } })).status).toBe(200);
    // The PATCHed limits reach quoting through identity's event.
    await eventually(async () => (await t.call('GET', receiver('$success.eur@sandbox.uma.money'))).body.supportedCurrencies?.[0]?.min === 50, { what: 'EUR limits in quoting' });
  });
  afterAll(() => t?.stop());

  describe('GET /receiver/uma/{receiverUmaAddress}', () => {
    it('looks up a sandbox receiver in its currency, from the platform\'s first currency (USD), within the platform limits', async () => {
      const res = await t.call('GET', receiver('$success.usd@sandbox.uma.money'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        receiverUmaAddress: '$success.usd@sandbox.uma.money',
        supportedCurrencies: [{ currency: { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 }, estimatedExchangeRate: 1, min: 100, max: 5_000_000 }],
        lookupId: expect.stringMatching(LOOKUP_ID),
      });
    });

    it('estimates the mid rate into another currency and uses that currency\'s own limits when configured', async () => {
      const before = Date.now();
      const res = await t.call('GET', receiver('$success.eur@sandbox.uma.money'));
      const [eur] = res.body.supportedCurrencies;
      expect(eur).toMatchObject({ currency: { code: 'EUR', decimals: 2 }, min: 50, max: 1_000_000_000 });
      expect(oneOfRates('USD', 'EUR', before, Date.now())).toContain(eur.estimatedExchangeRate);
    });

    it('converts the sending limits at the mid rate for a receiving currency the platform has not configured (MXN)', async () => {
      const [mxn] = (await t.call('GET', receiver('$success.mxn@sandbox.uma.money'))).body.supportedCurrencies;
      expect(mxn.currency.code).toBe('MXN');
      expect(mxn.estimatedExchangeRate).toBeCloseTo(17.25, 0);
      expect(mxn.min).toBe(Math.ceil(100 * mxn.estimatedExchangeRate));
      expect(mxn.max).toBe(Math.floor(5_000_000 * mxn.estimatedExchangeRate));
    });

    it('knows every sandbox receiver of the seed, whatever the case and on both sandbox domains', async () => {
      for (const [user, currency] of [['success.usd', 'USD'], ['success.eur', 'EUR'], ['success.mxn', 'MXN'], ['pending.long.usd', 'USD'], ['fail.compliance.usd', 'USD']]) {
        const res = await t.call('GET', receiver(`$${user.toUpperCase()}@sandbox.grid.uma.money`));
        expect(res.status).toBe(200);
        expect(res.body.receiverUmaAddress).toBe(`$${user}@sandbox.grid.uma.money`);
        expect(res.body.supportedCurrencies.map((c: { currency: { code: string } }) => c.currency.code)).toEqual([currency]);
      }
      // Unencoded `$` and `@` in the path work too.
      expect((await t.call('GET', '/receiver/uma/$success.usd@sandbox.uma.money')).status).toBe(200);
    });

    it('takes the sending currency from a sandbox senderUmaAddress', async () => {
      const before = Date.now();
      const res = await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?senderUmaAddress=${encodeURIComponent('$success.eur@sandbox.uma.money')}`);
      expect(res.status).toBe(200);
      expect(oneOfRates('EUR', 'USD', before, Date.now())).toContain(res.body.supportedCurrencies[0].estimatedExchangeRate);
    });

    it('takes the sending currency from the customer (customerId), and refuses another platform\'s customer', async () => {
      const customer = (await t.call('POST', '/customers', { body: { customerType: 'INDIVIDUAL', fullName: 'Uma Sender', currencies: ['EUR'] } })).body;
      expect(customer.id).toBeDefined();
      const res = await eventually(async () => {
        const r = await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?customerId=${encodeURIComponent(customer.id)}`);
        return r.status === 200 ? r : undefined;
      }, { what: 'customer known to quoting' });
      expect(res.body.supportedCurrencies[0].estimatedExchangeRate).toBeCloseTo(1 / 0.92, 1);
      const other = await t.createTenant('UMA stranger');
      const foreign = await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?customerId=${encodeURIComponent(customer.id)}`, { auth: other.sandbox });
      expect(foreign.body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
      expect((await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?customerId=Customer:nope`)).body).toMatchObject({ status: 404, code: 'USER_NOT_FOUND' });
    });

    it('refuses what is not a UMA address: 400 INVALID_UMA_ADDRESS', async () => {
      for (const bad of ['alice@example.com', '$@sandbox.uma.money', '$alice', '$al ice@example.com', `$${'a'.repeat(65)}@example.com`, '$alice@localhost']) {
        expect((await t.call('GET', receiver(bad))).body).toMatchObject({ status: 400, code: 'INVALID_UMA_ADDRESS', details: { errors: [{ field: 'receiverUmaAddress' }] } });
      }
      const sender = await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?senderUmaAddress=nobody`);
      expect(sender.body).toMatchObject({ status: 400, code: 'INVALID_UMA_ADDRESS', details: { errors: [{ field: 'senderUmaAddress' }] } });
      expect((await t.call('GET', `${receiver('$success.usd@sandbox.uma.money')}?unknown=1`)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    });

    it('answers 404 UMA_NOT_FOUND for an address no sandbox receiver has', async () => {
      expect((await t.call('GET', receiver('$success.gbp@sandbox.uma.money'))).body).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
      expect((await t.call('GET', receiver('$alice@wallet.example.com'))).body).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
    });

    it('in production: the sandbox domain does not exist (404), and other domains need a UMA client this deployment lacks (501)', async () => {
      expect((await t.call('GET', receiver('$success.usd@sandbox.uma.money'), { auth: t.tenant.production })).body).toMatchObject({ status: 404, code: 'UMA_NOT_FOUND' });
      expect((await t.call('GET', receiver('$alice@wallet.example.com'), { auth: t.tenant.production })).body).toMatchObject({ status: 501, code: 'NOT_IMPLEMENTED' });
      expect((await t.call('GET', receiver('alice'), { auth: t.tenant.production })).body).toMatchObject({ status: 400, code: 'INVALID_UMA_ADDRESS' });
    });

    it('stores every lookup for quote creation, resolvable only by its own platform and mode', async () => {
      const { lookupId } = (await t.call('GET', receiver('$Success.EUR@sandbox.uma.money'))).body;
      const caller = { platformId: t.platform.createdPlatform!.platformId, mode: 'SANDBOX' as const };
      expect(await t.platform.quoting.umaLookups.resolve(caller, lookupId)).toEqual({ lookupId, receiverUmaAddress: '$success.eur@sandbox.uma.money', currencies: ['EUR'] });
      const other = await t.createTenant('Lookup stranger');
      for (const scope of [{ platformId: other.platformId!, mode: 'SANDBOX' as const }, { ...caller, mode: 'PRODUCTION' as const }]) {
        await expect(t.platform.quoting.umaLookups.resolve(scope, lookupId)).rejects.toMatchObject({ status: 404, code: 'LOOKUP_REQUEST_NOT_FOUND' });
      }
      await expect(t.platform.quoting.umaLookups.resolve(caller, 'Lookup:00000000-0000-7000-8000-000000000000')).rejects.toMatchObject({ code: 'LOOKUP_REQUEST_NOT_FOUND' });
      await expect(t.platform.quoting.umaLookups.resolve(caller, 'nope')).rejects.toMatchObject({ code: 'LOOKUP_REQUEST_NOT_FOUND' });
      const [row] = await t.platform.quoting.host.dataSource.query(`SELECT platform_id, mode, receiver_uma_address, currencies, sending_currency FROM quoting.uma_lookups WHERE lookup_id = $1`, [lookupId]);
      expect(row).toEqual({ platform_id: caller.platformId, mode: 'SANDBOX', receiver_uma_address: '$success.eur@sandbox.uma.money', currencies: ['EUR'], sending_currency: 'USD' });
    });

    it('needs credentials (401) and VIEW (403)', async () => {
      expect((await t.call('GET', receiver('$success.usd@sandbox.uma.money'), { auth: '' })).body).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      const payer = (await t.call('POST', '/tokens', { body: { name: 'uma-payer', permissions: ['TRANSACT'] } })).body;
      const auth = basicAuth(payer.clientId, payer.clientSecret);
      expect((await t.call('GET', receiver('$success.usd@sandbox.uma.money'), { auth })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect((await t.call('GET', '/uma-providers', { auth })).body).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect((await t.call('GET', '/uma-providers', { auth: '' })).status).toBe(401);
    });
  });

  describe('GET /uma-providers', () => {
    const allowed = UMA_PROVIDERS.filter((p) => p.allowListStatus === 'ALLOWED').map((p) => p.name).sort();

    it('lists the allowed providers by name, with totalCount; BLOCKED ones only on request', async () => {
      const res = await t.call('GET', '/uma-providers?limit=100');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ hasMore: false, totalCount: allowed.length });
      expect(res.body.nextCursor).toBeUndefined();
      expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(allowed);
      // The published UmaProvider: currencies as Currency objects, the allow list as a boolean.
      const first = UMA_PROVIDERS.find((p) => p.name === allowed[0])!;
      expect(res.body.data[0]).toEqual({ ...first, supportedCurrencies: first.supportedCurrencies.map((code) => ({ code, name: expect.any(String), symbol: expect.any(String), decimals: expect.any(Number) })), allowListStatus: true });
      const all = (await t.call('GET', '/uma-providers?limit=100&hasBlockedProviders=true')).body;
      expect(all.totalCount).toBe(UMA_PROVIDERS.length);
      expect(all.data.filter((p: { allowListStatus: boolean }) => p.allowListStatus === false).length).toBeGreaterThan(0);
      expect((await t.call('GET', '/uma-providers?hasBlockedProviders=false')).body.totalCount).toBe(allowed.length);
    });

    it('filters by country and currency (case-insensitive)', async () => {
      const mx = (await t.call('GET', '/uma-providers?countryCode=mx')).body.data.map((p: { name: string }) => p.name);
      expect(mx).toEqual(['Quetzal Digital', 'Tidepool Pay']);
      const usdc = (await t.call('GET', '/uma-providers?currencyCode=USDC')).body;
      expect(usdc.data.every((p: { supportedCurrencies: { code: string }[] }) => p.supportedCurrencies.some((c) => c.code === 'USDC'))).toBe(true);
      expect(usdc.data.some((p: { name: string }) => p.name === 'Granite FX')).toBe(false); // BLOCKED
      expect((await t.call('GET', '/uma-providers?currencyCode=USDC&hasBlockedProviders=true')).body.data.some((p: { name: string }) => p.name === 'Granite FX')).toBe(true);
      expect((await t.call('GET', '/uma-providers?countryCode=US&currencyCode=MXN')).body.data.map((p: { name: string }) => p.name)).toEqual(['Tidepool Pay']);
      expect((await t.call('GET', '/uma-providers?countryCode=AQ')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    });

    it('pages with a cursor in either order, each provider exactly once', async () => {
      for (const order of ['asc', 'desc']) {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page++) {
          const res = await t.call('GET', `/uma-providers?limit=4&sortOrder=${order}${cursor ? `&cursor=${cursor}` : ''}`);
          expect(res.status).toBe(200);
          expect(res.body.totalCount).toBe(allowed.length);
          seen.push(...res.body.data.map((p: { name: string }) => p.name));
          expect(res.body.nextCursor === undefined).toBe(!res.body.hasMore);
          if (!res.body.hasMore) break;
          cursor = res.body.nextCursor;
        }
        expect(seen).toEqual(order === 'asc' ? allowed : [...allowed].reverse());
      }
    });

    it('refuses bad queries with 400 INVALID_INPUT', async () => {
      for (const query of ['limit=0', 'limit=101', 'limit=x', 'cursor=%%%', 'cursor=abc', 'countryCode=USA', 'currencyCode=1', 'hasBlockedProviders=yes', 'sortOrder=up', 'name=x']) {
        expect((await t.call('GET', `/uma-providers?${query}`)).body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
      }
    });
  });
});
