import type {
  Card,
  CardFundingSourceRef,
  CardRevealDetails,
  CardRevealResponse,
  CardSimulation,
  CreateCardRequest,
  ListCardsQuery,
  SandboxCardSimulationResponse,
  UpdateCardRequest,
} from '../cards';
import type { Page } from '../pagination';
import type { SignedBody, SignedOutcome, SignedRequestChallenge } from '../wallet-auth';
import { pingRpc } from './rpc';
import { rawRpc, rpc, sandboxRpc } from './rpc-contract';

/** RPC contracts of the cards service: cards, their reveal, the sandbox network simulators, funding-source lookups. */
export const CardsRpc = {
  create: rpc<CreateCardRequest, Card>('cards.cards.create'),
  list: rpc<ListCardsQuery, Page<Card>>('cards.cards.list'),
  get: rpc<CardIdBody, Card>('cards.cards.get'),
  /** PATCH /cards/{id}: a signed retry when an Embedded Wallet funds the card (its session signs), else direct. */
  update: rpc<SignedBody<CardIdBody & UpdateCardRequest>, SignedOutcome<Card, SignedRequestChallenge>>('cards.cards.update'),
  /** POST /cards/{id}/reveal: `origin` is where the gateway serves the reveal page. */
  reveal: rpc<CardIdBody & { origin: string }, CardRevealResponse>('cards.cards.reveal'),
  /** The reveal page: the token of a panEmbedUrl → what it shows, once (404 when unknown, expired, forged or used). */
  openReveal: rawRpc<{ token: string }, CardRevealDetails>('cards.reveal.open'),
  /** HEAD of the reveal page: whether openReveal would answer, without using the link up (404 as openReveal). */
  checkReveal: rawRpc<{ token: string }, { valid: true }>('cards.reveal.check'),
  simulate: sandboxRpc<CardSimulationBody, SandboxCardSimulationResponse>('cards.sandbox.simulate'),
  /** For wallet-auth (delegated keys): the binding of an internal account to a card, 404 when there is none. */
  getFundingSource: rpc<CardFundingSourceQuery, CardFundingSourceRef>('cards.funding-sources.get'),
  ping: pingRpc('cards.ping'),
} as const;

export interface CardIdBody {
  cardId: string;
}

export interface CardFundingSourceQuery {
  cardId: string;
  internalAccountId: string;
}

/** One sandbox network message for a card: the simulator's body, validated by the gateway. */
export interface CardSimulationBody extends CardIdBody {
  simulation: CardSimulation;
  amount?: number;
  currency?: { code: string };
  merchant?: { descriptor: string; mcc?: string; country?: string };
  cardTransactionId?: string;
}
