import { Controller, Inject } from '@nestjs/common';
import {
  Card,
  CardFundingSourceQuery,
  CardFundingSourceRef,
  CardIdBody,
  CardRevealDetails,
  CardRevealResponse,
  CardsRpc,
  CardSimulationBody,
  CreateCardRequest,
  ListCardsQuery,
  Page,
  RpcRequest,
  SandboxCardSimulationResponse,
  SignedBody,
  SignedOutcome,
  SignedRequestChallenge,
  UpdateCardRequest,
} from '@payments/contracts';
import { Handles } from '@payments/runtime';
import type { Cards } from './cards';
import { CARDS } from './cards.tokens';

const now = () => new Date().toISOString();

/** Thin RPC adapter of the cards service. */
@Controller()
export class CardsRpcController {
  constructor(@Inject(CARDS) private readonly cards: Cards) {}

  @Handles(CardsRpc.create)
  create(r: RpcRequest<CreateCardRequest>): Promise<Card> {
    return this.cards.cards.create(r.caller, r.body, now());
  }

  @Handles(CardsRpc.list)
  list(r: RpcRequest<ListCardsQuery>): Promise<Page<Card>> {
    return this.cards.cards.list(r.caller, r.body);
  }

  @Handles(CardsRpc.get)
  get(r: RpcRequest<CardIdBody>): Promise<Card> {
    return this.cards.cards.get(r.caller, r.body.cardId);
  }

  @Handles(CardsRpc.update)
  update(r: RpcRequest<SignedBody<CardIdBody & UpdateCardRequest>>): Promise<SignedOutcome<Card, SignedRequestChallenge>> {
    return this.cards.cards.update(r.caller, r.body, now());
  }

  @Handles(CardsRpc.reveal)
  reveal(r: RpcRequest<CardIdBody & { origin: string }>): Promise<CardRevealResponse> {
    return this.cards.cards.reveal(r.caller, r.body.cardId, r.body.origin, new Date());
  }

  /** No caller: the gateway's reveal page forwards the token, which is the only credential. */
  @Handles(CardsRpc.openReveal)
  openReveal(payload: { token: string }): Promise<CardRevealDetails> {
    return this.cards.cards.openReveal(String(payload?.token ?? ''), Date.now());
  }

  @Handles(CardsRpc.checkReveal)
  checkReveal(payload: { token: string }): Promise<{ valid: true }> {
    return this.cards.cards.checkReveal(String(payload?.token ?? ''), Date.now());
  }

  @Handles(CardsRpc.simulate)
  simulate(r: RpcRequest<CardSimulationBody>): Promise<SandboxCardSimulationResponse> {
    return this.cards.network.simulate(r.caller, r.body);
  }

  @Handles(CardsRpc.getFundingSource)
  getFundingSource(r: RpcRequest<CardFundingSourceQuery>): Promise<CardFundingSourceRef> {
    return this.cards.cards.fundingSource(r.caller, r.body.cardId, r.body.internalAccountId);
  }

  @Handles(CardsRpc.ping)
  async ping(): Promise<'pong'> {
    return 'pong';
  }
}
