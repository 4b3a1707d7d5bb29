import { serviceTopic } from '@payments/messaging';
import { rpcBinding } from '@payments/runtime';
import type { RuntimeConfig, ServiceDeps, ServiceServer } from '@payments/runtime';
import { Cards } from './cards';
import { startCardsServer } from './cards.server';

/** Opens the cards service from the configuration and serves its RPC and ops ports (cluster and embedded modes alike). */
export async function bootCards(config: RuntimeConfig, deps: ServiceDeps, secretHashKey: Buffer): Promise<{ cards: Cards; server: ServiceServer; stop(): Promise<void> }> {
  const cards = await Cards.open({
    databaseUrl: deps.databaseUrl,
    bus: deps.bus,
    topic: serviceTopic('cards'),
    sandboxTimeScale: config.sandboxTimeScale,
    secretHashKey,
    accounts: { host: config.accountsRpcHost, port: config.accountsRpcPort },
    identity: { host: config.identityRpcHost, port: config.identityRpcPort },
    walletAuth: { host: config.walletAuthRpcHost, port: config.walletAuthRpcPort },
    rpcTimeoutMs: config.rpcTimeoutMs,
    log: deps.log,
  });
  const server = await startCardsServer(cards, rpcBinding(config, config.cardsRpcPort, deps.embedded), deps.log, { host: config.rpcHost, port: config.cardsOpsPort, bus: deps.bus, listen: !deps.embedded });
  return { cards, server, stop: () => server.stop() };
}
