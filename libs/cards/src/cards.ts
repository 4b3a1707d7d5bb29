import { CARDS_EVENTS } from '@payments/contracts';
import { TimerHandler } from '@payments/eventsourcing';
import type { EventBus } from '@payments/messaging';
import { ServiceHost } from '@payments/runtime';
import { CardSecrets } from './cards/card-secrets';
import { CardService } from './cards/card.service';
import { cardsMigrations } from './cards.migrations';
import { CardPeers } from './peers';
import { CardNetwork } from './transactions/card-network';

export const CARDS_SERVICE = 'cards';

export interface CardsOptions {
  databaseUrl: string;
  bus: EventBus;
  topic: string;
  sandboxTimeScale: number;
  /** SECRET_HASH_KEY: the card secrets (PAN, CVV, reveal tokens) are derived from it, never stored. */
  secretHashKey: Buffer;
  accounts: { host: string; port: number };
  identity: { host: string; port: number };
  walletAuth: { host: string; port: number };
  rpcTimeoutMs: number;
  log?: (message: string, error?: unknown) => void;
}

/** The cards service's parts, wired once: used by its RPC controller and tests. */
export class Cards {
  private constructor(
    readonly host: ServiceHost,
    readonly cards: CardService,
    readonly network: CardNetwork,
    private readonly peers: CardPeers,
  ) {}

  static async open(options: CardsOptions): Promise<Cards> {
    const timerHandlers: Record<string, TimerHandler> = {};
    const host = await ServiceHost.open({
      name: CARDS_SERVICE,
      databaseUrl: options.databaseUrl,
      bus: options.bus,
      topic: options.topic,
      migrations: [cardsMigrations],
      entities: [],
      sandboxTimeScale: options.sandboxTimeScale,
      timerHandlers,
      events: CARDS_EVENTS,
      log: options.log,
    });
    const peers = new CardPeers({ accounts: options.accounts, identity: options.identity, walletAuth: options.walletAuth }, options.rpcTimeoutMs);
    const cards = new CardService(host.dataSource, host.store, host.executor, host.timers, host.claims, peers, new CardSecrets(options.secretHashKey));
    const network = new CardNetwork(host.dataSource, host.store, host.executor, host.timers, host.claims, peers, cards, options.log);
    Object.assign(timerHandlers, cards.timerHandlers(), network.timerHandlers());
    return new Cards(host, cards, network, peers);
  }

  /** Closes the RPC clients (the host is stopped by the server). */
  close(): Promise<void> {
    return this.peers.close();
  }
}
