import { configureProductionRails } from '@payments/contracts';
import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Accounts } from './accounts';
import { startAccountsServer } from './accounts.server';
import { assertDepositAccountsValid } from './internal-accounts/deposit-account-check';

/** Opens the accounts service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootAccounts(config: RuntimeConfig, deps: ServiceDeps): Promise<{ accounts: Accounts; server: ServiceServer; stop(): Promise<void> }> {
  // The deposit accounts production funding instructions show (rails configuration `depositAccounts`), checked first.
  assertDepositAccountsValid(config.rails);
  configureProductionRails(config.rails);
  const accounts = await Accounts.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('accounts'),
    sandboxTimeScale: config.sandboxTimeScale,
    quoting: { host: config.quotingRpcHost, port: config.quotingRpcPort, rpcTimeoutMs: config.rpcTimeoutMs },
    walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort, rpcTimeoutMs: config.rpcTimeoutMs },
    log: deps.log,
  });
  const server = await startAccountsServer(accounts, rpcBinding(config, config.accountsRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.accountsOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { accounts, server, stop: () => server.stop() };
}
