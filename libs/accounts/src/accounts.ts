import type { EventBus, SubscriptionHandle } from '@payments/messaging';
import { BackgroundWork, ServiceHost } from '@payments/runtime';
import { accountsMigrations } from './accounts.migrations';
import { IdentityEventsConsumer } from './internal-accounts/identity-events.consumer';
import { InternalAccountService } from './internal-accounts/internal-account.service';
import { LedgerService } from './ledger/ledger.service';

export const ACCOUNTS_SERVICE = 'accounts';

export interface AccountsOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  log?: (message: string, error?: unknown) => void;
}

/** The accounts service's parts, wired once: used by its RPC controllers, the admin CLI and tests. */
export class Accounts {
  private constructor(
    readonly host: ServiceHost,
    readonly ledger: LedgerService,
    readonly internalAccounts: InternalAccountService,
    /** Opens accounts from identity events; runs while the server runs. */
    readonly identityEvents: BackgroundWork,
  ) {}

  static async open(options: AccountsOptions): Promise<Accounts> {
    const host = await ServiceHost.open({
      name: ACCOUNTS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [accountsMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      log: options.log,
    });
    const ledger = new LedgerService(host.dataSource, host.executor);
    const internalAccounts = new InternalAccountService(host.dataSource, ledger);
    const consumer = new IdentityEventsConsumer(host.dataSource, internalAccounts, ACCOUNTS_SERVICE);
    let subscription: SubscriptionHandle | undefined;
    const identityEvents: BackgroundWork = {
      start: async () => {
        subscription = await consumer.subscribe(options.bus);
      },
      stop: async () => {
        await subscription?.stop();
        subscription = undefined;
      },
    };
    return new Accounts(host, ledger, internalAccounts, identityEvents);
  }
}
