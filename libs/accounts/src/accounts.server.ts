import { DynamicModule, Module } from '@nestjs/common';
import { createAppRegistry, ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { Accounts, ACCOUNTS_SERVICE } from './accounts';
import { AccountsRpcController } from './accounts.rpc.controller';
import { ExternalAccountRpcController } from './external-accounts/external-account.rpc.controller';
import { AccountVerificationRpcController } from './external-accounts/verification/account-verification.rpc.controller';
import { DiscoveriesRpcController } from './discoveries/discoveries.rpc.controller';
import { LedgerRpcController } from './ledger/ledger.rpc.controller';
import { LedgerChecksRpcController } from './ledger/ledger-checks.rpc.controller';
import { registerLedgerCheckMetrics } from './ledger/ledger-check-runs';
import { ACCOUNTS } from './accounts.tokens';

@Module({})
class AccountsRpcModule {
  static forAccounts(accounts: Accounts): DynamicModule {
    return { module: AccountsRpcModule, controllers: [AccountsRpcController, LedgerRpcController, DiscoveriesRpcController, ExternalAccountRpcController, AccountVerificationRpcController, LedgerChecksRpcController], providers: [{ provide: ACCOUNTS, useValue: accounts }] };
  }
}

/** Serves the accounts RPC, its relay and timers, the identity-events consumer and its ops server (with the last ledger:check). */
export function startAccountsServer(
  accounts: Accounts,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  const registry = createAppRegistry(ACCOUNTS_SERVICE);
  registerLedgerCheckMetrics(registry, accounts.host.dataSource);
  return startServiceServer({
    name: ACCOUNTS_SERVICE,
    registry,
    module: AccountsRpcModule.forAccounts(accounts),
    host: accounts.host,
    rpc,
    ops,
    background: [accounts.identityEvents],
    log,
  });
}
