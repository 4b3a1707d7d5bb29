import { v7 as uuidv7 } from 'uuid';
import { AccountCurrency, ApiError, CallerContext, CreateQuoteRequest, ExternalAccount, Mode, operatorCaller, OperatorRole } from '@payments/contracts';
import { queryRows } from '@payments/eventsourcing';
import { ServiceHost } from '@payments/runtime';
import { createTestDatabase, TestDatabase } from '@payments/testing';
import type { AccountDirectory } from '../accounts/account-directory';
import { WithdrawalFeeEstimator } from '../crypto-fees/withdrawal-fee.service';
import { CustomerDirectory } from '../platform-config/customer-directory';
import { QuotePartiesResolver } from '../quotes/quote-parties';
import { exchangeRateTerms, QuoteService } from '../quotes/quote.service';
import { quotingMigrations } from '../quoting.migrations';
import { exchangeRates } from '../rates/exchange-rates';
import { serviceFixedFee } from '../rates/fee-schedule';
import { SandboxRateBook } from '../rates/rate-books';
import type { RateBooks, RateSource } from '../rates/rate-source';
import { ScaFactors } from '../sca/sca-factors';
import { checkScaPasskeyConfig } from '../sca/sca-passkey.config';
import { ScaPasskeyService } from '../sca/sca-passkey.service';
import { FeeScheduleService } from './fee-schedule.service';
import { feeScheduleMigrations } from './fees.migrations';
import { quotingRatesMigrations } from '../rates/rates.migrations';

const PLATFORM = `Platform:${uuidv7()}`;
const OTHER_PLATFORM = `Platform:${uuidv7()}`;
const caller = (mode: Mode, platformId = PLATFORM): CallerContext => ({ platformId, mode, clientId: 'client', permissions: ['VIEW', 'TRANSACT'] });
const operator = (role: OperatorRole) => operatorCaller({ operatorId: `Operator:${role.toLowerCase()}`, name: `Ada the ${role.toLowerCase()}`, role });
const admin = operator('ADMIN');
const now = () => new Date().toISOString();
const ceilBps = (amount: number, bps: number) => Math.ceil((amount * bps) / 10_000);

/** A fixed mid rate in both modes (production's rate sources are tested elsewhere): fees are what this test looks at. */
const fixed: RateSource = {
  rate: (sourceCurrency, destinationCurrency, at) => ({ sourceCurrency, destinationCurrency, midRate: '0.9', sourcePerBtc: '60000', validUntil: new Date(Date.parse(at) + 300_000).toISOString() }),
};
const rates: RateBooks = { book: async (_mode, at) => new SandboxRateBook(fixed, at) };
const bookNow = () => new SandboxRateBook(fixed, now());

/** The accounts of this test by id; the kind of one can change under a quote (a destination that stops being payable). */
const accounts = new Map<string, AccountCurrency>();
const account = (kind: 'INTERNAL' | 'EXTERNAL', currency: string, customerId?: string): string => {
  const accountId = `${kind === 'INTERNAL' ? 'InternalAccount' : 'ExternalAccount'}:${uuidv7()}`;
  accounts.set(accountId, { accountId, kind, currency, owner: customerId ? 'CUSTOMER' : 'PLATFORM', ...(customerId ? { customerId } : {}), status: 'ACTIVE', ...(kind === 'INTERNAL' ? { internalType: 'INTERNAL_FIAT' as const } : {}) });
  return accountId;
};
const directory: AccountDirectory = {
  accountCurrency: async (_caller, accountId) => {
    const found = accounts.get(accountId);
    if (!found) throw new ApiError('REFERENCE_NOT_FOUND', 'account not found');
    return found;
  },
  externalAccount: async (_caller, id) => ({ id, trustedBeneficiary: true }) as unknown as ExternalAccount,
  trustBeneficiary: async () => undefined,
  realtimeFundingInstructions: async () => [],
  close: async () => undefined,
};

/** Fee schedules and the production pricing of quotes and withdrawals from them, on a real PostgreSQL, without HTTP. */
describe('operator fee schedules and production pricing (real PostgreSQL)', () => {
  let database: TestDatabase;
  let host: ServiceHost;
  let fees: FeeScheduleService;
  let quotes: QuoteService;
  let estimator: WithdrawalFeeEstimator;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = await ServiceHost.open({
      name: 'quoting',
      databaseUrl: database.url,
      bus: { publish: async () => undefined, ensureTopics: async () => undefined },
      topic: 'quoting.test',
      migrations: [quotingMigrations, feeScheduleMigrations, quotingRatesMigrations],
      entities: [],
      sandboxTimeScale: 1,
    });
    const limits = JSON.stringify(['USD', 'EUR', 'MXN', 'USDC'].map((currencyCode) => ({ currencyCode, minAmount: 1, maxAmount: 1_000_000_000 })));
    for (const [platformId, mode] of [[PLATFORM, 'SANDBOX'], [PLATFORM, 'PRODUCTION'], [OTHER_PLATFORM, 'PRODUCTION']]) {
      await host.dataSource.query(`INSERT INTO platform_currency_configs (config_stream_id, platform_id, mode, configs) VALUES ($1, $2, $3, $4::jsonb)`, [`PlatformConfig:${uuidv7()}`, platformId, mode, limits]);
    }
    fees = new FeeScheduleService(host.dataSource, host.executor, 100);
    const customers = new CustomerDirectory(host.dataSource, 100);
    const passkeys = new ScaPasskeyService(host.dataSource, host.executor, checkScaPasskeyConfig({ rpId: 'localhost', origins: ['http://localhost'], rpName: 'Test' }), { registrationTtlMs: 300_000, openRegistrationsMax: 3 });
    const parties = new QuotePartiesResolver(directory, customers, undefined);
    const wallets = { verify: async () => undefined, close: async () => undefined };
    quotes = new QuoteService(host.dataSource, host.executor, host.timers, rates, directory, customers, parties, new ScaFactors(passkeys), { quoteTtlMs: 300_000, scaChallengeTtlMs: 300_000, configArrivalWaitMs: 100 }, host.claims, wallets, fees);
    estimator = new WithdrawalFeeEstimator(directory, fees);
  });
  afterAll(async () => {
    await host.stop();
    await database.drop();
  });

  /** Everything quoting recorded: a refusal must leave these as they were. */
  const recorded = async () => (await queryRows<{ n: number; q: number }>(host.dataSource, `SELECT (SELECT count(*)::int FROM events) AS n, (SELECT count(*)::int FROM quotes) AS q`))[0];
  const refusal = async (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as ApiError);
  const quoteRequest = (source: string, destination: string, amount = 1_000_000): CreateQuoteRequest =>
    ({ source: { sourceType: 'ACCOUNT', accountId: source }, destination: { destinationType: 'ACCOUNT', accountId: destination }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: amount }) as CreateQuoteRequest;
  const createdData = async (quoteId: string) =>
    (await queryRows<{ data: Record<string, unknown> }>(host.dataSource, `SELECT data FROM events WHERE stream_id = $1 AND type = 'QuoteCreated.v1'`, [quoteId]))[0].data;
  const audits = async (action: string) => queryRows<{ data: Record<string, unknown> }>(host.dataSource, `SELECT data FROM events WHERE type = 'OperatorActionRecorded.v1' AND data->>'action' = $1 ORDER BY global_position`, [action]);

  describe('setting, reading and removing', () => {
    it('versions each change, audits it in the same transaction, and decides nothing for the same values again', async () => {
      const request = { platformId: OTHER_PLATFORM, sourceCurrency: 'USD', destinationCurrency: 'MXN', variableFeeBps: 40, fixedFees: [{ currency: 'USD', amount: 30 }], reason: 'negotiated' };
      const first = await fees.setService(admin, request, now());
      expect(first).toMatchObject({ id: `ServiceFeeSchedule:${OTHER_PLATFORM}:USD-MXN`, platformId: OTHER_PLATFORM, sourceCurrency: 'USD', destinationCurrency: 'MXN', variableFeeBps: 40, fixedFees: [{ currency: 'USD', amount: 30 }], version: 1, updatedBy: { id: 'Operator:admin', name: 'Ada the admin' } });
      expect(await fees.setService(admin, request, now())).toMatchObject({ version: 1 });
      const second = await fees.setService(admin, { ...request, variableFeeBps: 35, reason: 'cheaper' }, now());
      expect(second.version).toBe(2);
      const audited = await audits('fees.set-service');
      expect(audited.map((a) => a.data)).toEqual([
        expect.objectContaining({ operatorId: 'Operator:admin', targetType: 'ServiceFeeSchedule', targetId: first.id, platformId: OTHER_PLATFORM, reason: 'negotiated', details: expect.objectContaining({ variableFeeBps: 40 }) }),
        expect.objectContaining({ reason: 'cheaper', details: expect.objectContaining({ variableFeeBps: 35 }) }),
      ]);
      const listed = await fees.listService({ platformId: OTHER_PLATFORM });
      expect(listed).toMatchObject({ data: [{ id: first.id, version: 2, variableFeeBps: 35 }], hasMore: false, totalCount: 1 });

      const removed = await fees.removeService(admin, { scheduleId: first.id, reason: 'contract ended' }, now());
      expect(removed).toMatchObject({ id: first.id, version: 3, change: 'REMOVED', reason: 'contract ended', variableFeeBps: 35 });
      expect((await fees.listService({ platformId: OTHER_PLATFORM })).data).toEqual([]);
      expect(await refusal(fees.removeService(admin, { scheduleId: first.id }, now()))).toMatchObject({ status: 404 });
      const history = await fees.serviceHistory({ scheduleId: first.id });
      expect(history.data.map((v) => [v.version, v.change, v.variableFeeBps, v.reason])).toEqual([
        [3, 'REMOVED', 35, 'contract ended'],
        [2, 'SET', 35, 'cheaper'],
        [1, 'SET', 40, 'negotiated'],
      ]);
      expect((await audits('fees.remove-service')).map((a) => a.data.targetId)).toEqual([first.id]);
      // Pages walk the history once each.
      const page1 = await fees.serviceHistory({ scheduleId: first.id, limit: 2 });
      const page2 = await fees.serviceHistory({ scheduleId: first.id, limit: 2, cursor: page1.nextCursor });
      expect([...page1.data, ...page2.data].map((v) => v.version)).toEqual([3, 2, 1]);
    });

    it('refuses a VIEWER or REVIEWER (403) and bad input (4xx) with nothing recorded', async () => {
      const before = await recorded();
      const valid = { variableFeeBps: 10, fixedFees: [] };
      for (const role of ['VIEWER', 'REVIEWER'] as const) expect(await refusal(fees.setService(operator(role), valid, now()))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
      expect(await refusal(fees.setNetwork(operator('VIEWER'), { currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 1, applicationFeeBps: 0 }, now()))).toMatchObject({ status: 403 });
      expect(await refusal(fees.setService(caller('PRODUCTION'), valid, now()))).toMatchObject({ status: 404 });
      const bad: [Parameters<FeeScheduleService['setService']>[1], string, string][] = [
        [{ ...valid, sourceCurrency: 'USD' }, 'INVALID_INPUT', 'destinationCurrency'],
        [{ ...valid, sourceCurrency: 'USD', destinationCurrency: 'USD' }, 'SAME_CURRENCY', 'destinationCurrency'],
        [{ ...valid, sourceCurrency: 'XXX', destinationCurrency: 'USD' }, 'INVALID_CURRENCY', 'sourceCurrency'],
        [{ ...valid, sourceCurrency: 'USD', destinationCurrency: 'EUR', fixedFees: [{ currency: 'EUR', amount: 5 }] }, 'INVALID_CURRENCY', 'fixedFees[0].currency'],
        [{ ...valid, fixedFees: [{ currency: 'USD', amount: 5 }, { currency: 'USD', amount: 6 }] }, 'INVALID_INPUT', 'fixedFees[1].currency'],
      ];
      for (const [request, code, field] of bad) {
        expect(await refusal(fees.setService(admin, request, now()))).toMatchObject({ status: 400, code, details: { errors: [{ field }] } });
      }
      expect(await refusal(fees.setService(admin, { ...valid, platformId: `Platform:${uuidv7()}` }, now()))).toMatchObject({ status: 404, code: 'REFERENCE_NOT_FOUND' });
      expect(await refusal(fees.setNetwork(admin, { currency: 'USDC', cryptoNetwork: 'TRON', networkFee: 1, applicationFeeBps: 0 }, now()))).toMatchObject({ status: 400, details: { errors: [{ field: 'cryptoNetwork' }] } });
      expect(await refusal(fees.setNetwork(admin, { currency: 'USDB', cryptoNetwork: 'SPARK', networkFee: 1, applicationFeeBps: 0 }, now()))).toMatchObject({ status: 400, code: 'INVALID_CURRENCY' });
      expect(await refusal(fees.removeService(admin, { scheduleId: 'NetworkFeeSchedule:deployment:USDC:BASE' }, now()))).toMatchObject({ status: 404 });
      expect(await recorded()).toEqual(before);
    });
  });

  describe('production quotes', () => {
    // The platform's own accounts: no customer, no SCA.
    const usd = account('INTERNAL', 'USD');
    const eur = account('INTERNAL', 'EUR');
    const mxn = account('INTERNAL', 'MXN');
    const amount = 1_000_000;

    it('charge no service fee and record no schedule while none is configured', async () => {
      const quote = await quotes.create(caller('PRODUCTION'), quoteRequest(usd, eur, amount), now());
      expect(quote.feesIncluded).toBe(0);
      expect((await createdData(quote.id)).serviceFeeSchedule).toBeNull();
    });

    it('take the first of: platform corridor, platform default, deployment corridor, deployment default; and record which', async () => {
      const price = async (destination: string) => {
        const quote = await quotes.create(caller('PRODUCTION'), quoteRequest(usd, destination, amount), now());
        return { fees: quote.feesIncluded, schedule: (await createdData(quote.id)).serviceFeeSchedule };
      };
      const deploymentDefault = await fees.setService(admin, { variableFeeBps: 100, fixedFees: [{ currency: 'USD', amount: 50 }] }, now());
      expect(await price(eur)).toEqual({ fees: ceilBps(amount, 100) + 50, schedule: { id: deploymentDefault.id, version: 1 } });
      const deploymentCorridor = await fees.setService(admin, { sourceCurrency: 'USD', destinationCurrency: 'EUR', variableFeeBps: 80, fixedFees: [{ currency: 'USD', amount: 40 }] }, now());
      expect(await price(eur)).toEqual({ fees: ceilBps(amount, 80) + 40, schedule: { id: deploymentCorridor.id, version: 1 } });
      expect((await price(mxn)).schedule).toEqual({ id: deploymentDefault.id, version: 1 });
      const platformDefault = await fees.setService(admin, { platformId: PLATFORM, variableFeeBps: 60, fixedFees: [] }, now());
      expect(await price(eur)).toEqual({ fees: ceilBps(amount, 60), schedule: { id: platformDefault.id, version: 1 } });
      const platformCorridor = await fees.setService(admin, { platformId: PLATFORM, sourceCurrency: 'USD', destinationCurrency: 'EUR', variableFeeBps: 25, fixedFees: [{ currency: 'USD', amount: 7 }] }, now());
      expect(await price(eur)).toEqual({ fees: ceilBps(amount, 25) + 7, schedule: { id: platformCorridor.id, version: 1 } });
      expect((await price(mxn)).schedule).toEqual({ id: platformDefault.id, version: 1 });
      // Another platform's schedules never price this one's quotes.
      await fees.setService(admin, { platformId: OTHER_PLATFORM, variableFeeBps: 1, fixedFees: [] }, now());
      expect((await price(mxn)).schedule).toEqual({ id: platformDefault.id, version: 1 });
      // A new version prices the next quote, and the quote says which version.
      await fees.setService(admin, { platformId: PLATFORM, sourceCurrency: 'USD', destinationCurrency: 'EUR', variableFeeBps: 20, fixedFees: [{ currency: 'USD', amount: 7 }] }, now());
      expect(await price(eur)).toEqual({ fees: ceilBps(amount, 20) + 7, schedule: { id: platformCorridor.id, version: 2 } });
      // Removing the platform's schedules falls back to the deployment's.
      await fees.removeService(admin, { scheduleId: platformCorridor.id }, now());
      await fees.removeService(admin, { scheduleId: platformDefault.id }, now());
      expect((await price(eur)).schedule).toEqual({ id: deploymentCorridor.id, version: 1 });
    });

    it('GET /exchange-rates shows the fees a production quote of the corridor would charge', async () => {
      const terms = await exchangeRateTerms(host.dataSource, caller('PRODUCTION'), 'USD', fees);
      const { data } = exchangeRates(bookNow(), { sourceCurrency: 'USD', destinationCurrency: ['EUR', 'MXN'], sendingAmount: amount }, terms, now());
      expect(data.map((r) => [r.destinationCurrency.code, r.fixedFee, r.variableFeeRate])).toEqual([
        ['EUR', 40, 0.8],
        ['MXN', 50, 1],
      ]);
    });

    it('leave the sandbox on its built-in fees whatever is configured', async () => {
      const sandboxUsd = account('INTERNAL', 'USD');
      const sandboxEur = account('INTERNAL', 'EUR');
      const quote = await quotes.create(caller('SANDBOX'), quoteRequest(sandboxUsd, sandboxEur, amount), now());
      expect(quote.feesIncluded).toBe(ceilBps(amount, 50) + serviceFixedFee('USD'));
      expect((await createdData(quote.id)).serviceFeeSchedule).toEqual({ id: 'ServiceFeeSchedule:sandbox', version: 1 });
      const { data } = exchangeRates(bookNow(), { sourceCurrency: 'USD', destinationCurrency: ['EUR'], sendingAmount: amount }, await exchangeRateTerms(host.dataSource, caller('SANDBOX'), 'USD', fees), now());
      expect(data[0]).toMatchObject({ fixedFee: serviceFixedFee('USD'), variableFeeRate: 0.5 });
    });

    it('refuse (501, nothing recorded) what production cannot carry out: an external payout, SCA without a passkey', async () => {
      const before = await recorded();
      const external = account('EXTERNAL', 'EUR');
      expect(await refusal(quotes.create(caller('PRODUCTION'), quoteRequest(usd, external), now()))).toMatchObject({
        status: 501,
        code: 'NOT_IMPLEMENTED',
        details: { capability: 'PAYOUT_RAIL', currency: 'EUR', configure: expect.stringContaining('rail connector') },
      });
      const euCustomer = `Customer:${uuidv7()}`;
      await host.dataSource.query(`INSERT INTO customers (customer_id, platform_id, mode, region, currencies, kyc_status, customer_type) VALUES ($1, $2, 'PRODUCTION', 'DE', '[]'::jsonb, 'APPROVED', 'INDIVIDUAL')`, [euCustomer, PLATFORM]);
      expect(await refusal(quotes.create(caller('PRODUCTION'), quoteRequest(account('INTERNAL', 'EUR', euCustomer), account('INTERNAL', 'USD', euCustomer)), now()))).toMatchObject({
        status: 501,
        details: { capability: 'SMS_PROVIDER' },
        message: expect.stringContaining('/sca/passkey'),
      });
      expect(await recorded()).toEqual(before);
      // The sandbox pays external accounts and sends SMS codes.
      const sandboxQuote = await quotes.create(caller('SANDBOX'), quoteRequest(account('INTERNAL', 'USD'), account('EXTERNAL', 'EUR')), now());
      expect(sandboxQuote.status).toBe('PENDING');
    });

    it('refuse to execute (501, nothing recorded) a quote whose destination production can no longer pay', async () => {
      const destination = account('INTERNAL', 'EUR');
      const quote = await quotes.create(caller('PRODUCTION'), quoteRequest(usd, destination), now());
      accounts.set(destination, { ...accounts.get(destination)!, kind: 'EXTERNAL' });
      const before = await recorded();
      expect(await refusal(quotes.execute(caller('PRODUCTION'), quote.id, now()))).toMatchObject({ status: 501, details: { capability: 'PAYOUT_RAIL' } });
      expect(await recorded()).toEqual(before);
      expect((await quotes.get(caller('PRODUCTION'), quote.id)).status).toBe('PENDING');
    });
  });

  describe('production withdrawal fee estimates', () => {
    const usdc = account('INTERNAL', 'USDC');
    const estimate = (mode: Mode, platformId = PLATFORM) =>
      estimator.estimate(caller(mode, platformId), { internalAccountId: usdc, currency: 'USDC', cryptoNetwork: 'BASE', amount: 10_000_000, destinationAddress: '0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359' });

    it('answer 501 naming the operator API while no network fee is configured; the sandbox uses its table', async () => {
      expect(await refusal(estimate('PRODUCTION'))).toMatchObject({
        status: 501,
        code: 'NOT_IMPLEMENTED',
        message: expect.stringContaining('PUT /operator/v1/fees/network'),
        details: { capability: 'WITHDRAWAL_NETWORK_FEE', configure: 'PUT /operator/v1/fees/network', currency: 'USDC', cryptoNetwork: 'BASE' },
      });
      expect(await estimate('SANDBOX')).toEqual({ networkFee: 10_000, networkFeeAsset: 'ETH', applicationFee: 10_000, totalFee: 20_000, netAmount: 9_980_000 });
    });

    it("charge the deployment's network fee, or the platform's where it has one", async () => {
      const deployment = await fees.setNetwork(admin, { currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 30_000, applicationFeeBps: 0, reason: 'gas is up' }, now());
      expect(deployment).toMatchObject({ id: 'NetworkFeeSchedule:deployment:USDC:BASE', platformId: null, networkFee: 30_000, networkFeeAsset: 'ETH', applicationFeeBps: 0, version: 1 });
      expect(await estimate('PRODUCTION')).toEqual({ networkFee: 30_000, networkFeeAsset: 'ETH', applicationFee: 0, totalFee: 30_000, netAmount: 9_970_000 });
      await fees.setNetwork(admin, { platformId: PLATFORM, currency: 'USDC', cryptoNetwork: 'BASE', networkFee: 12_000, applicationFeeBps: 25 }, now());
      expect(await estimate('PRODUCTION')).toEqual({ networkFee: 12_000, networkFeeAsset: 'ETH', applicationFee: 25_000, totalFee: 37_000, netAmount: 9_963_000 });
      // Another platform still pays the deployment's.
      expect(await estimate('PRODUCTION', OTHER_PLATFORM)).toMatchObject({ networkFee: 30_000, applicationFee: 0 });
      expect((await audits('fees.set-network')).map((a) => a.data.targetId)).toEqual([deployment.id, `NetworkFeeSchedule:${PLATFORM}:USDC:BASE`]);
      expect((await fees.listNetwork({ currency: 'USDC' })).data.map((n) => n.id)).toEqual([deployment.id, `NetworkFeeSchedule:${PLATFORM}:USDC:BASE`].sort());
      expect(await estimate('SANDBOX')).toMatchObject({ networkFee: 10_000, applicationFee: 10_000 });
    });
  });
});
