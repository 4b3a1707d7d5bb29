import type { CurrencyAmount } from '../accounts/internal-accounts.dto';

/** Card lifecycle (seed: States and transitions; interop §6.9). */
export const CARD_STATES = ['PROCESSING', 'ACTIVE', 'FROZEN', 'CLOSED'] as const;
export type CardState = (typeof CARD_STATES)[number];
export type CardStateReason = 'ISSUER_REJECTED' | 'CLOSED_BY_PLATFORM';
export const CARD_FORMS = ['VIRTUAL'] as const;
export type CardForm = (typeof CARD_FORMS)[number];
/** Currencies a card can transact in: its funding sources must all be in one of them. */
export const CARD_CURRENCIES = ['USD', 'EUR', 'GBP', 'USDB'] as const;
/** How many funding sources one card may bind. */
export const CARD_FUNDING_SOURCES_MAX = 10;

/** A card as GET /cards/{id} answers it: never the PAN, the CVV or a reveal URL. */
export interface Card {
  /** @pattern ^Card: */
  id: string;
  cardholderId: string;
  platformCardId?: string;
  state: CardState;
  /** Set when the card is CLOSED (by the platform, or the issuer rejected it); otherwise null. */
  stateReason: CardStateReason | null;
  brand?: 'VISA' | 'MASTERCARD';
  form: CardForm;
  last4?: string;
  /**
   * @asType integer
   * @minimum 1
   * @maximum 12
   */
  expMonth?: number;
  /** @asType integer */
  expYear?: number;
  /** Internal account ids in priority order: Authorization Decisioning tries the first one first. */
  fundingSources: string[];
  /** The largest amount one authorization may take, in the smallest unit of `currency`; null: no limit. */
  maxSpendPerTransaction: number | null;
  currency?: string;
  processorRef?: string;
  issuerRef?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** POST /cards/{id}/reveal: a signed, short-lived URL of the page that shows the PAN, CVV and expiry. */
export interface CardRevealResponse {
  /**
   * Shown once: absent on an Idempotency-Key replay.
   * @format uri
   */
  panEmbedUrl?: string;
  /** @format date-time */
  expiresAt: string;
}

/** What the reveal page shows (cards → gateway, over RPC only; never stored or logged). */
export interface CardRevealDetails {
  pan: string;
  cvv: string;
  expMonth: number;
  expYear: number;
  cardholderName?: string;
}

export const CARD_TRANSACTION_STATUSES = ['AUTHORIZED', 'PARTIALLY_SETTLED', 'SETTLED', 'REFUNDED', 'EXCEPTION'] as const;
export type CardTransactionStatus = (typeof CARD_TRANSACTION_STATUSES)[number];
/** Why a card authorization was declined (seed: CARD_PAUSED or INSUFFICIENT_FUNDS; SPEND_LIMIT_EXCEEDED for maxSpendPerTransaction). */
export type CardDeclineReason = 'CARD_PAUSED' | 'INSUFFICIENT_FUNDS' | 'SPEND_LIMIT_EXCEEDED';

export interface CardMerchant {
  descriptor: string;
  /** Four digits (ISO 18245). */
  mcc?: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
}

export interface CardCountSummary {
  /** @asType integer */
  count: number;
  /** @asType integer */
  totalAmount: number;
}

export interface CardPullSummary extends CardCountSummary {
  /** Pulls not yet confirmed or failed. @asType integer */
  pendingCount?: number;
}

/**
 * The parent row of one card authorization with its pulls, settlements and refunds (GET /transactions, type CARD).
 * `closedReason` says why a transaction closed without a clearing: AUTHORIZATION_EXPIRY (a clearing of 0) or
 * BALANCE_INQUIRY (a zero-amount authorization).
 */
export interface CardTransaction {
  type: 'CARD';
  /** @pattern ^CardTransaction: */
  id: string;
  cardId: string;
  customerId: string;
  platformCustomerId: string;
  issuerTransactionToken: string;
  status: CardTransactionStatus;
  direction: 'DEBIT' | 'CREDIT';
  merchant: CardMerchant;
  authorizedAmount: CurrencyAmount;
  settledAmount?: CurrencyAmount;
  refundedAmount?: CurrencyAmount;
  /** The funding source Authorization Decisioning chose. */
  accountId: string;
  pullSummary: CardPullSummary;
  refundSummary: CardCountSummary;
  settlementSummary: CardCountSummary;
  closedReason?: 'AUTHORIZATION_EXPIRY' | 'BALANCE_INQUIRY';
  /** @format date-time */
  authorizedAt: string;
  /** @format date-time */
  lastEventAt?: string;
  /** @format date-time */
  createdAt: string;
  /** @format date-time */
  updatedAt: string;
}

/** The sandbox card simulators answer 202 with the issuer's token of the simulated network message. */
export interface SandboxCardSimulationResponse {
  issuerTransactionToken: string;
}

/** A card's binding of one internal account (the delegated-key endpoints name it `CardFundingSource:<uuid>`). */
export interface CardFundingSourceRef {
  fundingSourceId: string;
  cardId: string;
  accountId: string;
  cardholderId: string;
  /** Whether the account is an Embedded Wallet (its funding needs an ACTIVE delegated key). */
  embeddedWallet: boolean;
}

/** The sandbox network messages a card can be sent (`/sandbox/cards/{id}/simulate/<kind>`). */
export const CARD_SIMULATIONS = [
  'authorization',
  'authorization_advice',
  'balance_inquiry',
  'clearing',
  'credit_authorization',
  'credit_authorization_advice',
  'financial_authorization',
  'financial_credit_authorization',
  'return',
  'return_reversal',
] as const;
export type CardSimulation = (typeof CARD_SIMULATIONS)[number];

export const isCardId = (value: string): boolean => /^Card:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
export const isCardTransactionId = (value: string): boolean => /^CardTransaction:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value);
