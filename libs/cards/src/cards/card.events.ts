import type { DomainEvent } from '@payments/eventsourcing';
import type { CARDS_EVENTS, CardChangedData, CardForm, Catalogued, Mode } from '@payments/contracts';

/** One bound internal account: its binding id (stable per card and account) and whether it is an Embedded Wallet. */
export interface FundingSourceBinding {
  accountId: string;
  fundingSourceId: string;
  embeddedWallet: boolean;
}

/** How the (sandbox) issuer answers the issue request, decided from the issuance suffix when the card is requested. */
export type IssuerPlan = 'ACTIVATE' | 'ACTIVATE_LATER' | 'STAY_PROCESSING' | 'REJECT';

/** What a card request fixes. `currency` is the funding sources' one currency. */
export interface CardTerms {
  cardId: string;
  platformId: string;
  mode: Mode;
  cardholderId: string;
  platformCardId: string;
  form: CardForm;
  currency: string;
  fundingSources: FundingSourceBinding[];
  maxSpendPerTransaction: number | null;
  issuerPlan: IssuerPlan;
  /** The characters last4 derives from (the issuance suffix). */
  issuanceKey: string;
  requestedAt: string;
}

export interface ProvisionedCard {
  brand: 'VISA';
  last4: string;
  expMonth: number;
  expYear: number;
  processorRef: string;
  issuerRef: string;
  at: string;
}

export type CardIssueRequested = DomainEvent<'CardIssueRequested.v1', CardTerms>;
export type CardProvisioned = DomainEvent<'CardProvisioned.v1', ProvisionedCard>;
export type CardIssuerRejected = DomainEvent<'CardIssuerRejected.v1', { at: string }>;
export type CardFrozen = DomainEvent<'CardFrozen.v1', { at: string; by: string }>;
export type CardUnfrozen = DomainEvent<'CardUnfrozen.v1', { at: string; by: string }>;
export type CardClosed = DomainEvent<'CardClosed.v1', { at: string; by: string }>;
export type CardFundingSourcesReplaced = DomainEvent<'CardFundingSourcesReplaced.v1', { fundingSources: FundingSourceBinding[]; at: string }>;
export type CardSpendLimitChanged = DomainEvent<'CardSpendLimitChanged.v1', { maxSpendPerTransaction: number | null; at: string }>;
/** The reveal audit record: who minted a reveal URL, and until when it works (never the URL itself). */
export type CardRevealed = DomainEvent<'CardRevealed.v1', { actor: string; expiresAt: string; at: string }>;
export type CardStateChanged = DomainEvent<'CardStateChanged.v1', CardChangedData>;
export type CardFundingSourcesChanged = DomainEvent<'CardFundingSourcesChanged.v1', CardChangedData>;

export type CardEvent =
  | CardIssueRequested
  | CardProvisioned
  | CardIssuerRejected
  | CardFrozen
  | CardUnfrozen
  | CardClosed
  | CardFundingSourcesReplaced
  | CardSpendLimitChanged
  | CardRevealed
  | CardStateChanged
  | CardFundingSourcesChanged;

const _declared: Catalogued<typeof CARDS_EVENTS, CardEvent> = true;
