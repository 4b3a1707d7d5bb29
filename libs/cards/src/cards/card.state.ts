import type { CardState as PublicCardState, CardStateReason } from '@payments/contracts';
import { CardEvent, CardTerms, FundingSourceBinding, ProvisionedCard } from './card.events';

export interface ExistingCard extends CardTerms {
  status: 'EXISTS';
  state: PublicCardState;
  stateReason: CardStateReason | null;
  provisioned?: ProvisionedCard;
  updatedAt: string;
}

export type CardState = { status: 'NONE' } | ExistingCard;

const bindings = (s: ExistingCard, fundingSources: FundingSourceBinding[]): ExistingCard => ({ ...s, fundingSources });

export function evolveCard(state: CardState, event: CardEvent): CardState {
  if (event.type === 'CardIssueRequested.v1') return { ...event.data, status: 'EXISTS', state: 'PROCESSING', stateReason: null, updatedAt: event.data.requestedAt };
  if (state.status === 'NONE') return state;
  switch (event.type) {
    case 'CardProvisioned.v1':
      return { ...state, state: 'ACTIVE', provisioned: event.data, updatedAt: event.data.at };
    case 'CardIssuerRejected.v1':
      return { ...state, state: 'CLOSED', stateReason: 'ISSUER_REJECTED', updatedAt: event.data.at };
    case 'CardFrozen.v1':
      return { ...state, state: 'FROZEN', updatedAt: event.data.at };
    case 'CardUnfrozen.v1':
      return { ...state, state: 'ACTIVE', updatedAt: event.data.at };
    case 'CardClosed.v1':
      // Closing detaches the funding sources: nothing can be pulled through the card again.
      return { ...bindings(state, []), state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', updatedAt: event.data.at };
    case 'CardFundingSourcesReplaced.v1':
      return { ...bindings(state, event.data.fundingSources), updatedAt: event.data.at };
    case 'CardSpendLimitChanged.v1':
      return { ...state, maxSpendPerTransaction: event.data.maxSpendPerTransaction, updatedAt: event.data.at };
    case 'CardRevealed.v1':
    case 'CardStateChanged.v1':
    case 'CardFundingSourcesChanged.v1':
      return state;
  }
}
