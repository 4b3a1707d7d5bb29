import type { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { BackgroundWork, ServiceHost, subscriptionWork } from '@payments/runtime';
import { accountsMigrations } from './accounts.migrations';
import { IdentityEventsConsumer } from './internal-accounts/identity-events.consumer';
import { InternalAccountService } from './internal-accounts/internal-account.service';
import { LedgerCommands } from './ledger/ledger-commands';
import { LedgerService } from './ledger/ledger.service';
import { ExternalAccountService, ExternalAccountServiceOptions } from './external-accounts/external-account.service';
import { externalAccountsMigrations } from './external-accounts/external-accounts.migrations';
import { SANDBOX_VERIFICATION_DELAY_MS, UNTRUST_CODE_TTL_MS } from './external-accounts/external-account.rules';
import { RateSource, SameCurrencyRateSource } from './external-accounts/receiver-lookup';
import { AccountVerificationService } from './external-accounts/verification/account-verification.service';
import { QuotingRateSource } from './external-accounts/quoting-rate-source';
import { InternalAccountSettingsService } from './internal-accounts/settings/internal-account-settings.service';
import { NO_SIGNED_REQUESTS, RpcSignedRequestAuthorizer } from './internal-accounts/settings/wallet-authorizer';

export const ACCOUNTS_SERVICE = 'accounts';

export interface AccountsOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  log?: (message: string, error?: unknown) => void;
  externalAccounts?: Partial<ExternalAccountServiceOptions>;
  /** Estimated rates of receiver lookups; by default the quoting service's when `quoting` is given, else same-currency only. */
  rates?: RateSource;
  /** Where accounts reaches the quoting service (receiver-lookup rates), called at request time only. */
  quoting?: { host: string; port: number; rpcTimeoutMs: number };
  /**
   * Where accounts reaches the wallet-auth service (the signed retry of PATCH /internal-accounts/{id}), called at
   * request time only; without it such an update is 503.
   */
  walletAuth?: { host: string; port: number; rpcTimeoutMs: number };
}

export const EXTERNAL_ACCOUNT_DEFAULTS: ExternalAccountServiceOptions = {
  verificationDelayMs: SANDBOX_VERIFICATION_DELAY_MS,
  sandboxCode: '123456',
  untrustCodeTtlMs: UNTRUST_CODE_TTL_MS,
  customerArrivalWaitMs: 3_000,
};

/** The accounts service's parts, wired once: used by its RPC controllers, the admin CLI and tests. */
export class Accounts {
  private constructor(
    readonly host: ServiceHost,
    readonly ledger: LedgerService,
    readonly internalAccounts: InternalAccountService,
    /** Opens accounts from identity events; runs while the server runs. */
    readonly identityEvents: BackgroundWork,
    /** Ledger commands for other services (LedgerRpc): holds, captures, credits, reversals. */
    readonly ledgerCommands: LedgerCommands,
    /** External accounts (bank, mobile money, wallets) and receiver lookups. */
    readonly externalAccounts: ExternalAccountService,
    /** An Embedded Wallet's settings (privateEnabled), changed by a signed retry through wallet-auth. */
    readonly internalAccountSettings: InternalAccountSettingsService,
    /** How production external accounts become ACTIVE: methods per currency, the operator queue, the rails' port. */
    readonly accountVerification: AccountVerificationService,
  ) {}

  static async open(options: AccountsOptions): Promise<Accounts> {
    // Filled below once the services exist; the timer poller only starts later, with host.start().
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: ACCOUNTS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [accountsMigrations, externalAccountsMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      log: options.log,
    });
    const ledger = new LedgerService(host.dataSource, host.executor);
    const internalAccounts = new InternalAccountService(host.dataSource, ledger, host.claims);
    const ledgerCommands = new LedgerCommands(host.dataSource, ledger, host.timers);
    Object.assign(timerHandlers, ledgerCommands.timerHandlers());
    const quotingRates = !options.rates && options.quoting ? new QuotingRateSource(options.quoting, options.quoting.rpcTimeoutMs) : undefined;
    const externalAccounts = new ExternalAccountService(
      host.dataSource,
      host.executor,
      host.timers,
      options.rates ?? quotingRates ?? new SameCurrencyRateSource(),
      { ...EXTERNAL_ACCOUNT_DEFAULTS, ...options.externalAccounts },
      host.claims,
    );
    Object.assign(timerHandlers, externalAccounts.timerHandlers());
    const wallets = options.walletAuth ? new RpcSignedRequestAuthorizer(options.walletAuth, options.walletAuth.rpcTimeoutMs) : NO_SIGNED_REQUESTS;
    const internalAccountSettings = new InternalAccountSettingsService(host.dataSource, host.executor, wallets);
    const consumer = new IdentityEventsConsumer(host.dataSource, internalAccounts, ACCOUNTS_SERVICE);
    // The quoting and wallet-auth RPC clients close after the subscription stops.
    const identityEvents = subscriptionWork(
      () => consumer.subscribe(options.bus),
      async () => {
        await quotingRates?.close();
        await wallets.close();
      },
    );
    const accountVerification = new AccountVerificationService(host.dataSource, host.executor);
    return new Accounts(host, ledger, internalAccounts, identityEvents, ledgerCommands, externalAccounts, internalAccountSettings, accountVerification);
  }
}
