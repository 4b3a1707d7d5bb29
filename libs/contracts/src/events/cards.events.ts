import type { Card, CardDeclineReason, CardMerchant, CardTransaction } from '../cards/cards';
import type { Mode } from '../rpc/rpc';
import { dataSchema, defineCatalogue, defineEvent } from './catalogue';

const service = 'cards';
const internal = <const N extends string>(name: N, description: string) => defineEvent({ service, name, version: 1, visibility: 'internal', description });

/** CardStateChanged.v1 / CardFundingSourcesChanged.v1: the card as GET /cards/{id} answered at that moment. */
export interface CardChangedData {
  platformId: string;
  mode: Mode;
  card: Card;
}

/** CardTransactionUpdated.v1: the card transaction as GET /transactions/{id} answers it after the change. */
export interface CardTransactionUpdatedData {
  platformId: string;
  mode: Mode;
  transaction: CardTransaction;
}

/** CardAuthorizationDeclined.v1: the network asked, Authorization Decisioning said no; no card transaction is opened. */
export interface CardAuthorizationDeclinedData {
  platformId: string;
  mode: Mode;
  cardId: string;
  customerId: string;
  issuerTransactionToken: string;
  reason: CardDeclineReason;
  amount: number;
  currency: string;
  merchant: CardMerchant;
  at: string;
}

/**
 * The cards service's events (topic `payments.cards.events.v1`): streams `Card:<uuid>` and `CardTransaction:<uuid>`.
 * The public ones carry the resource as the API shows it, so a webhook equals GET at that moment.
 */
export const CARDS_EVENTS = defineCatalogue(service, [
  internal('CardIssueRequested', 'A card was requested: cardholder, funding sources, limit; the issuer provisions it.'),
  internal('CardProvisioned', 'The issuer provisioned the card: PAN tail, expiry, references.'),
  internal('CardIssuerRejected', 'The issuer rejected the card.'),
  internal('CardFrozen', 'The platform froze the card.'),
  internal('CardUnfrozen', 'The platform unfroze the card.'),
  internal('CardClosed', 'The platform closed the card; its funding sources are detached.'),
  internal('CardFundingSourcesReplaced', 'The ordered funding sources of the card were replaced.'),
  internal('CardSpendLimitChanged', 'maxSpendPerTransaction was set or cleared.'),
  internal('CardRevealed', 'A reveal URL was minted (the audit record: who, until when).'),
  defineEvent({ service, name: 'CardStateChanged', version: 1, visibility: 'public', data: dataSchema<CardChangedData>('CardChangedData'), description: 'Every successful card state transition, with the card after it (webhook card.state_change).' }),
  defineEvent({ service, name: 'CardFundingSourcesChanged', version: 1, visibility: 'public', data: dataSchema<CardChangedData>('CardChangedData'), description: 'The card\'s fundingSources were replaced (webhook card.funding_source_change).' }),
  internal('CardAuthorizationReceived', 'The network asked to authorize an amount on the card (or a single-message, credit or balance inquiry).'),
  defineEvent({ service, name: 'CardAuthorizationDeclined', version: 1, visibility: 'public', data: dataSchema<CardAuthorizationDeclinedData>('CardAuthorizationDeclinedData'), description: 'An authorization was declined (CARD_PAUSED, INSUFFICIENT_FUNDS, SPEND_LIMIT_EXCEEDED); nothing moved.' }),
  internal('CardTransactionAuthorized', 'An authorization was approved on a funding source: its hold and first pull.'),
  internal('CardNetworkMessageReceived', 'A clearing, advice, return or return reversal arrived for the transaction; applied next.'),
  internal('CardNetworkMessageApplied', 'A network message was applied: what it pulled, settled, released or refunded.'),
  internal('CardPullCompleted', 'A pending pull from the funding source was confirmed or failed.'),
  defineEvent({ service, name: 'CardTransactionUpdated', version: 1, visibility: 'public', data: dataSchema<CardTransactionUpdatedData>('CardTransactionUpdatedData'), description: 'Every transition of a card transaction, with its view after it (webhook CARD_TRANSACTION.<status>).' }),
]);
