import { DynamicModule, Module } from '@nestjs/common';
import { ServiceServer, ServiceServerOptions, startServiceServer } from '@payments/runtime';
import { Cards, CARDS_SERVICE } from './cards';
import { CardsRpcController } from './cards.rpc.controller';
import { CARDS } from './cards.tokens';

@Module({})
class CardsRpcModule {
  static forCards(cards: Cards): DynamicModule {
    return { module: CardsRpcModule, controllers: [CardsRpcController], providers: [{ provide: CARDS, useValue: cards }] };
  }
}

/** Serves the cards RPC, its relay and timers, and its ops server. */
export function startCardsServer(
  cards: Cards,
  rpc: ServiceServerOptions['rpc'],
  log?: (message: string, error?: unknown) => void,
  ops?: ServiceServerOptions['ops'],
): Promise<ServiceServer> {
  return startServiceServer({ name: CARDS_SERVICE, module: CardsRpcModule.forCards(cards), host: cards.host, rpc, ops, background: [{ start: async () => undefined, stop: () => cards.close() }], log });
}
