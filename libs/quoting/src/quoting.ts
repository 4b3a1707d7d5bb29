import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, EgressClient, ServiceHost, subscriptionWork } from '@payments/runtime';
import { AccountDirectory, RpcAccountDirectory } from './accounts/account-directory';
import { QuotingIdentityEventsConsumer } from './platform-config/identity-events.consumer';
import { QuoteService, QuoteServiceOptions } from './quotes/quote.service';
import { RpcWalletSignatures } from './wallets/wallet-source';
import { QuoteAuthorizer } from './quotes/quote-authorization';
import { QuotePartiesResolver } from './quotes/quote-parties';
import { PaymentOutcomesConsumer } from './quotes/payment-outcomes.consumer';
import { RateBooks, RateSource } from './rates/rate-source';
import { SandboxRateSource } from './rates/sandbox-rates';
import { ModeRateBooks } from './rates/rate-books';
import { quotingRatesMigrations } from './rates/rates.migrations';
import { DatabaseProductionRates, OPERATOR_RATE_MAX_AGE_SECONDS_DEFAULT } from './rates/production/production-rates';
import { OperatorRatesService } from './rates/production/operator-rates.service';
import { EcbRatesFetcher, ECB_MAX_AGE_SECONDS_DEFAULT, ECB_REFRESH_SECONDS_DEFAULT } from './rates/ecb/ecb-rates';
import { quotingMigrations } from './quoting.migrations';
import { CustomerDirectory } from './platform-config/customer-directory';
import { UmaLookups } from './uma/uma-lookups';
import { WithdrawalFeeEstimator } from './crypto-fees/withdrawal-fee.service';
import { FeeScheduleService } from './fees/fee-schedule.service';
import { feeScheduleMigrations } from './fees/fees.migrations';
import { checkScaPasskeyConfig, SCA_PASSKEY_DEFAULTS, ScaFactors, ScaPasskeyConfig, ScaPasskeyService } from './sca';

export const QUOTING_SERVICE = 'quoting';
/** The spec's usual quote lifetime: 5 minutes. */
export const QUOTE_TTL_MS_DEFAULT = 5 * 60_000;
/** One SCA challenge can be answered for 5 minutes (a new round or an expired one issues a new challenge). */
export const SCA_CHALLENGE_TTL_MS_DEFAULT = 5 * 60_000;

export interface QuotingOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  /** Where quoting reaches the accounts service (account currencies). */
  accounts: { host: string; port: number };
  /** Where quoting reaches wallet-auth (signatures of quotes from Embedded Wallets). */
  walletAuth: { host: string; port: number };
  rpcTimeoutMs: number;
  quotes?: Partial<QuoteServiceOptions>;
  /** The sandbox's mid rates; the built-in synthetic table by default. */
  rates?: RateSource;
  /**
   * Production's rate sources: the operator table's maximum age (RATE_MAX_AGE_SECONDS) and the ECB adapter
   * (ECB_RATES_URL, ECB_REFRESH_SECONDS, ECB_MAX_AGE_SECONDS; off without a URL). Defaults: 3 days, ECB off.
   */
  productionRates?: ProductionRatesOptions;
  /** EGRESS_ALLOW_PRIVATE_NETWORKS: the ECB URL may be on a private network (local development and tests only). */
  egressAllowPrivateNetworks?: boolean;
  /** WebAuthn relying party of SCA passkeys (SCA_PASSKEY_RP_ID, SCA_PASSKEY_ORIGINS); localhost by default. */
  scaPasskey?: Partial<ScaPasskeyConfig>;
  log?: (message: string, error?: unknown) => void;
}

/** The quoting service's parts, wired once: used by its RPC controller and tests. */
export class Quoting {
  private constructor(
    readonly host: ServiceHost,
    /** Mid rates by mode: the sandbox's synthetic table, production's configured sources. */
    readonly rates: RateBooks,
    readonly quotes: QuoteService,
    readonly authorizer: QuoteAuthorizer,
    readonly accounts: AccountDirectory,
    /** Keeps platform limits and customers from identity events, and closes quotes from payments' outcomes. */
    readonly identityEvents: BackgroundWork,
    /** SCA passkey enrolment, and the factor checks of quote authorization. */
    readonly scaPasskeys: ScaPasskeyService,
    readonly scaFactors: ScaFactors,
    /** Receiver lookups of UMA addresses (GET /receiver/uma), resolved again by quote creation. */
    readonly umaLookups: UmaLookups,
    readonly withdrawalFees: WithdrawalFeeEstimator,
    /** Quoting's copy of identity's customers (tenancy and region of a customer named in a request). */
    readonly customers: CustomerDirectory,
    /** The operator's service fee schedules and network fees (production pricing). */
    readonly fees: FeeScheduleService,
    /** The operator API's rates: the operator table, the sources' state, the pricing of quotes. */
    readonly operatorRates: OperatorRatesService,
    /** Fetches the ECB's reference rates on a schedule when ECB_RATES_URL is set. */
    readonly ecbRates: EcbRatesFetcher | undefined,
  ) {}

  static async open(options: QuotingOptions): Promise<Quoting> {
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: QUOTING_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [quotingMigrations, feeScheduleMigrations, quotingRatesMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const productionRates = openProductionRates(host, options);
    const rates = new ModeRateBooks(options.rates ?? new SandboxRateSource(), productionRates.rates);
    const accounts = new RpcAccountDirectory(options.accounts, options.rpcTimeoutMs);
    const scaConfig = checkScaPasskeyConfig({ ...SCA_PASSKEY_DEFAULTS, ...options.scaPasskey });
    const scaPasskeys = new ScaPasskeyService(host.dataSource, host.executor, scaConfig, { registrationTtlMs: 5 * 60_000, openRegistrationsMax: 5 });
    const scaFactors = new ScaFactors(scaPasskeys);
    const quoteOptions: QuoteServiceOptions = { quoteTtlMs: QUOTE_TTL_MS_DEFAULT, scaChallengeTtlMs: SCA_CHALLENGE_TTL_MS_DEFAULT, configArrivalWaitMs: 3_000, ...options.quotes };
    const customers = new CustomerDirectory(host.dataSource, quoteOptions.configArrivalWaitMs);
    const umaLookups = new UmaLookups(host.dataSource, rates, customers);
    const parties = new QuotePartiesResolver(accounts, customers, umaLookups);
    const wallets = new RpcWalletSignatures(options.walletAuth, options.rpcTimeoutMs);
    const fees = new FeeScheduleService(host.dataSource, host.executor, quoteOptions.configArrivalWaitMs);
    const quotes = new QuoteService(host.dataSource, host.executor, host.timers, rates, accounts, customers, parties, scaFactors, quoteOptions, host.claims, wallets, fees);
    const authorizer = new QuoteAuthorizer(quotes, scaFactors, accounts);
    Object.assign(timerHandlers, quotes.timerHandlers());
    const consumer = new QuotingIdentityEventsConsumer(host.dataSource, QUOTING_SERVICE);
    const outcomes = new PaymentOutcomesConsumer(host.dataSource, QUOTING_SERVICE, quotes, options.log ?? (() => undefined));
    // The accounts RPC client closes after the subscriptions stop.
    const identityEvents = subscriptionWork(
      async () => {
        const handles = [await consumer.subscribe(options.bus), await outcomes.subscribe(options.bus)];
        return { stop: async () => void (await Promise.all(handles.map((h) => h.stop()))) };
      },
      async () => void (await Promise.all([accounts.close(), wallets.close()])),
    );
    const operatorRates = new OperatorRatesService(host.dataSource, host.store, productionRates.rates);
    return new Quoting(host, rates, quotes, authorizer, accounts, identityEvents, scaPasskeys, scaFactors, umaLookups, new WithdrawalFeeEstimator(accounts, fees), customers, fees, operatorRates, productionRates.ecb);
  }
}

export interface ProductionRatesOptions {
  operatorMaxAgeSeconds?: number;
  ecb?: { url: string; refreshSeconds?: number; maxAgeSeconds?: number };
}

/** The ECB fetch's own deadline (connecting, the answer, the body). */
const ECB_FETCH_TIMEOUT_MS = 30_000;

/** Production's rates from the database, and the ECB fetcher when ECB_RATES_URL is set. */
function openProductionRates(host: ServiceHost, options: QuotingOptions): { rates: DatabaseProductionRates; ecb?: EcbRatesFetcher } {
  const settings = { operatorMaxAgeMs: (options.productionRates?.operatorMaxAgeSeconds ?? OPERATOR_RATE_MAX_AGE_SECONDS_DEFAULT) * 1000 };
  const ecbOptions = options.productionRates?.ecb;
  if (!ecbOptions) return { rates: new DatabaseProductionRates(host.dataSource, settings) };
  const egress = new EgressClient({ allowPrivateNetworks: options.egressAllowPrivateNetworks ?? false, log: (message) => options.log?.(message) });
  const refusal = egress.refusalOf(ecbOptions.url);
  if (refusal) throw new Error(`ECB_RATES_URL ${ecbOptions.url}: ${refusal.message}`);
  const fetcherOptions = {
    url: ecbOptions.url,
    refreshMs: (ecbOptions.refreshSeconds ?? ECB_REFRESH_SECONDS_DEFAULT) * 1000,
    maxAgeMs: (ecbOptions.maxAgeSeconds ?? ECB_MAX_AGE_SECONDS_DEFAULT) * 1000,
    timeoutMs: ECB_FETCH_TIMEOUT_MS,
  };
  const ecb = new EcbRatesFetcher(host.dataSource, egress, fetcherOptions, options.log);
  return { rates: new DatabaseProductionRates(host.dataSource, settings, { ...fetcherOptions, status: ecb.status }), ecb };
}
