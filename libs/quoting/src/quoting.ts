import type { EntityManager } from 'typeorm';
import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceHost, subscriptionWork } from '@payments/runtime';
import { AccountDirectory, RpcAccountDirectory } from './accounts/account-directory';
import { QuotingIdentityEventsConsumer } from './platform-config/identity-events.consumer';
import { QuoteService, QuoteServiceOptions } from './quotes/quote.service';
import { RateSource } from './rates/rate-source';
import { SandboxRateSource } from './rates/sandbox-rates';
import { quotingMigrations } from './quoting.migrations';

export const QUOTING_SERVICE = 'quoting';
/** The spec's usual quote lifetime: 5 minutes. */
export const QUOTE_TTL_MS_DEFAULT = 5 * 60_000;

export interface QuotingOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  /** Where quoting reaches the accounts service (account currencies). */
  accounts: { host: string; port: number };
  rpcTimeoutMs: number;
  quotes?: Partial<QuoteServiceOptions>;
  /** Mid rates; the built-in sandbox table by default. */
  rates?: RateSource;
  log?: (message: string, error?: unknown) => void;
}

/** The quoting service's parts, wired once: used by its RPC controller and tests. */
export class Quoting {
  private constructor(
    readonly host: ServiceHost,
    readonly rates: RateSource,
    readonly quotes: QuoteService,
    readonly accounts: AccountDirectory,
    /** Keeps platform currency limits from identity events; runs while the server runs. */
    readonly identityEvents: BackgroundWork,
  ) {}

  static async open(options: QuotingOptions): Promise<Quoting> {
    const timerHandlers: Record<string, TimerHandler<EntityManager>> = {};
    const host = await ServiceHost.open({
      name: QUOTING_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [quotingMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const rates = options.rates ?? new SandboxRateSource();
    const accounts = new RpcAccountDirectory(options.accounts, options.rpcTimeoutMs);
    const quotes = new QuoteService(host.dataSource, host.executor, host.timers, rates, accounts, {
      quoteTtlMs: QUOTE_TTL_MS_DEFAULT,
      configArrivalWaitMs: 3_000,
      ...options.quotes,
    });
    Object.assign(timerHandlers, quotes.timerHandlers());
    const consumer = new QuotingIdentityEventsConsumer(host.dataSource, QUOTING_SERVICE);
    // The accounts RPC client closes after the subscription stops.
    const identityEvents = subscriptionWork(() => consumer.subscribe(options.bus), () => accounts.close());
    return new Quoting(host, rates, quotes, accounts, identityEvents);
  }
}
