import type { Card } from '@payments/contracts';
import { ExistingCard } from './card.state';

/** The card as the API shows it: never the PAN, the CVV or a reveal URL. */
export function toCard(s: ExistingCard): Card {
  const p = s.provisioned;
  return {
    id: s.cardId,
    cardholderId: s.cardholderId,
    platformCardId: s.platformCardId,
    state: s.state,
    stateReason: s.stateReason,
    ...(p ? { brand: p.brand, last4: p.last4, expMonth: p.expMonth, expYear: p.expYear, processorRef: p.processorRef, issuerRef: p.issuerRef } : {}),
    form: s.form,
    fundingSources: s.fundingSources.map((f) => f.accountId),
    maxSpendPerTransaction: s.maxSpendPerTransaction,
    currency: s.currency,
    createdAt: s.requestedAt,
    updatedAt: s.updatedAt,
  };
}
