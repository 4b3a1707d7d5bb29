import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceHost, subscriptionWork } from '@payments/runtime';
import { AccountDirectory, RpcAccountDirectory } from './accounts/account-directory';
import { QuotingIdentityEventsConsumer } from './platform-config/identity-events.consumer';
import { QuoteService, QuoteServiceOptions } from './quotes/quote.service';
import { RpcWalletSignatures } from './wallets/wallet-source';
import { QuoteAuthorizer } from './quotes/quote-authorization';
import { QuotePartiesResolver } from './quotes/quote-parties';
import { PaymentOutcomesConsumer } from './quotes/payment-outcomes.consumer';
import { RateSource } from './rates/rate-source';
import { SandboxRateSource } from './rates/sandbox-rates';
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
  /** Mid rates; the built-in sandbox table by default. */
  rates?: RateSource;
  /** WebAuthn relying party of SCA passkeys (SCA_PASSKEY_RP_ID, SCA_PASSKEY_ORIGINS); localhost by default. */
  scaPasskey?: Partial<ScaPasskeyConfig>;
  log?: (message: string, error?: unknown) => void;
}

/** The quoting service's parts, wired once: used by its RPC controller and tests. */
export class Quoting {
  private constructor(
    readonly host: ServiceHost,
    readonly rates: RateSource,
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
  ) {}

  static async open(options: QuotingOptions): Promise<Quoting> {
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: QUOTING_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [quotingMigrations, feeScheduleMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const rates = options.rates ?? new SandboxRateSource();
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
    return new Quoting(host, rates, quotes, authorizer, accounts, identityEvents, scaPasskeys, scaFactors, umaLookups, new WithdrawalFeeEstimator(accounts, fees), customers, fees);
  }
}
