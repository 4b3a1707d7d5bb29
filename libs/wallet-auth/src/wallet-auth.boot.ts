import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { WalletAuth } from './wallet-auth';
import { startWalletAuthServer } from './wallet-auth.server';

/** Opens the wallet-auth service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootWalletAuth(config: RuntimeConfig, deps: ServiceDeps, secretHashKey: Buffer): Promise<{ walletAuth: WalletAuth; server: ServiceServer; stop(): Promise<void> }> {
  const walletAuth = await WalletAuth.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('wallet-auth'),
    secretHashKey,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    cards: { host: config.cardsRpcHost, port: config.cardsRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    contactDeliveryUrl: config.contactDeliveryUrl,
    egressAllowPrivateNetworks: config.egressAllowPrivateNetworks,
    config: { passkey: config.scaPasskey },
    log: deps.log,
  });
  const server = await startWalletAuthServer(walletAuth, rpcBinding(config, config.walletAuthRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.walletAuthOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { walletAuth, server, stop: () => server.stop() };
}
