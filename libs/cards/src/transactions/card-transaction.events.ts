import type { DomainEvent } from '@payments/eventsourcing';
import type { CARDS_EVENTS, CardAuthorizationDeclinedData, CardMerchant, CardTransactionUpdatedData, Catalogued, Mode } from '@payments/contracts';

/** The network messages that open a card transaction, and their money direction. */
export type AuthorizationKind = 'AUTHORIZATION' | 'FINANCIAL' | 'BALANCE_INQUIRY' | 'CREDIT' | 'FINANCIAL_CREDIT';
/** Messages on an open transaction. EXPIRY is a clearing of 0, or the card's close reconciling it. */
export type NetworkMessageKind = 'CLEARING' | 'EXPIRY' | 'ADVICE' | 'RETURN' | 'RETURN_REVERSAL';
export type PullStatus = 'PENDING' | 'CONFIRMED' | 'FAILED' | 'CANCELLED';
/** How the simulated funding pull goes (the descriptor suffix of the authorization: 005 later, 006 fails). */
export type PullPlan = 'NOW' | 'LATER' | 'FAIL';

export interface CardTransactionTerms {
  transactionId: string;
  cardId: string;
  platformId: string;
  mode: Mode;
  customerId: string;
  platformCustomerId: string;
  currency: string;
  kind: AuthorizationKind;
  direction: 'DEBIT' | 'CREDIT';
  /** 0 for a balance inquiry. */
  amount: number;
  merchant: CardMerchant;
  issuerTransactionToken: string;
  /** What the descriptor suffix says the pulls of this transaction do. */
  pullPlan: PullPlan;
  receivedAt: string;
}

/** A pull from the funding source into the card network: n=1 is the authorization's (a hold), later ones post-hoc. */
export interface Pull {
  n: number;
  amount: number;
  status: PullStatus;
  /** The authorization's pull captures its hold; later pulls are transfers. */
  fromHold: boolean;
}

export interface AuthorizedData {
  accountId: string;
  fundingSourceId: string;
  /** The delegated key that signed for an Embedded Wallet source. */
  delegatedKeyId?: string;
  pull?: Pull;
  /** Single-message authorizations settle at once; credits are paid at once. */
  settled: number;
  credited: number;
  closedReason?: 'BALANCE_INQUIRY';
  at: string;
}

export interface NetworkMessage {
  n: number;
  kind: NetworkMessageKind;
  amount: number;
  issuerTransactionToken: string;
  at: string;
}

/** What applying a message did: each field what moved (or was recorded) for it. */
export interface AppliedData {
  n: number;
  /** Pending pulls confirmed (or cancelled by an expiry) before the message applied. */
  pulls: Pull[];
  newPull?: Pull;
  settled: number;
  released: number;
  credited: number;
  refund?: { n: number; amount: number };
  reversedRefund?: { n: number; amount: number; failed: boolean };
  authorizedAmount?: number;
  closedReason?: 'AUTHORIZATION_EXPIRY';
  at: string;
}

export type CardAuthorizationReceived = DomainEvent<'CardAuthorizationReceived.v1', CardTransactionTerms>;
export type CardAuthorizationDeclined = DomainEvent<'CardAuthorizationDeclined.v1', CardAuthorizationDeclinedData>;
export type CardTransactionAuthorized = DomainEvent<'CardTransactionAuthorized.v1', AuthorizedData>;
export type CardNetworkMessageReceived = DomainEvent<'CardNetworkMessageReceived.v1', NetworkMessage>;
export type CardNetworkMessageApplied = DomainEvent<'CardNetworkMessageApplied.v1', AppliedData>;
export type CardPullCompleted = DomainEvent<'CardPullCompleted.v1', { n: number; status: 'CONFIRMED' | 'FAILED'; at: string }>;
export type CardTransactionUpdated = DomainEvent<'CardTransactionUpdated.v1', CardTransactionUpdatedData>;

export type CardTransactionEvent =
  | CardAuthorizationReceived
  | CardAuthorizationDeclined
  | CardTransactionAuthorized
  | CardNetworkMessageReceived
  | CardNetworkMessageApplied
  | CardPullCompleted
  | CardTransactionUpdated;

const _declared: Catalogued<typeof CARDS_EVENTS, CardTransactionEvent> = true;
