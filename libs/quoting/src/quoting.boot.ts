import { configureProductionRails } from '@payments/contracts';
import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Quoting } from './quoting';
import { startQuotingServer } from './quoting.server';

/** Opens the quoting service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootQuoting(config: RuntimeConfig, deps: ServiceDeps): Promise<{ quoting: Quoting; server: ServiceServer; stop(): Promise<void> }> {
  configureProductionRails(config.rails);
  const quoting = await Quoting.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('quoting'),
    sandboxTimeScale: config.sandboxTimeScale,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    quotes: { quoteTtlMs: config.quoteTtlMs, scaChallengeTtlMs: config.scaChallengeTtlMs },
    scaPasskey: config.scaPasskey,
    productionRates: config.rates,
    egressAllowPrivateNetworks: config.egressAllowPrivateNetworks,
    log: deps.log,
  });
  const server = await startQuotingServer(quoting, rpcBinding(config, config.quotingRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.quotingOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { quoting, server, stop: () => server.stop() };
}
