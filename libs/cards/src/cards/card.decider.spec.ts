import { given } from '@payments/eventsourcing';
import { cardDecider } from './card.decider';
import { CardEvent, CardTerms } from './card.events';

const at = '2026-11-24T10:00:00.000Z';
const later = '2026-11-24T10:05:00.000Z';
const terms: CardTerms = {
  cardId: 'Card:1',
  platformId: 'Platform:1',
  mode: 'SANDBOX',
  cardholderId: 'Customer:1',
  platformCardId: 'card-1',
  form: 'VIRTUAL',
  currency: 'USD',
  fundingSources: [{ accountId: 'InternalAccount:a', fundingSourceId: 'CardFundingSource:a', embeddedWallet: false }],
  maxSpendPerTransaction: null,
  issuerPlan: 'ACTIVATE',
  issuanceKey: 'card-1234',
  requestedAt: at,
};
const provisioned = { brand: 'VISA' as const, last4: '1234', expMonth: 11, expYear: 2029, processorRef: 'proc_1', issuerRef: 'iss_1', at };
const requested: CardEvent = { type: 'CardIssueRequested.v1', data: terms };
const active: CardEvent[] = [requested, { type: 'CardProvisioned.v1', data: provisioned }];
const frozen: CardEvent[] = [...active, { type: 'CardFrozen.v1', data: { at, by: 'client' } }];
const closed: CardEvent[] = [...active, { type: 'CardClosed.v1', data: { at, by: 'client' } }];
const update = (change: Record<string, unknown>) => ({ type: 'UpdateCard' as const, by: 'client', now: later, ...change });
const publicOf = (events: readonly CardEvent[]) => events.filter((e) => e.type === 'CardStateChanged.v1' || e.type === 'CardFundingSourcesChanged.v1');

describe('card decider', () => {
  it('a new card is PROCESSING and says nothing public until the issuer answers', () => {
    const events = given(cardDecider).when({ type: 'RequestCard', terms }).then([requested]);
    expect(publicOf(events)).toEqual([]);
    expect(given(cardDecider, [requested]).when({ type: 'RequestCard', terms }).then([])).toEqual([]);
  });

  it('the issuer provisions once (ACTIVE, with the card after it), or rejects (CLOSED, ISSUER_REJECTED)', () => {
    const events = given(cardDecider, [requested]).when({ type: 'Provision', provisioned }).decision as CardEvent[];
    expect(events.map((e) => e.type)).toEqual(['CardProvisioned.v1', 'CardStateChanged.v1']);
    expect(events[1].data).toMatchObject({ card: { state: 'ACTIVE', last4: '1234', stateReason: null } });
    given(cardDecider, active).when({ type: 'Provision', provisioned }).then([]);
    const rejected = given(cardDecider, [requested]).when({ type: 'RejectIssue', now: at }).decision as CardEvent[];
    expect(rejected[1].data).toMatchObject({ card: { state: 'CLOSED', stateReason: 'ISSUER_REJECTED' } });
  });

  it('allows ACTIVE ⇄ FROZEN and ACTIVE | FROZEN → CLOSED, and refuses every other move with INVALID_STATE_TRANSITION', () => {
    expect((given(cardDecider, active).when(update({ state: 'FROZEN' })).decision as CardEvent[]).map((e) => e.type)).toEqual(['CardFrozen.v1', 'CardStateChanged.v1']);
    expect((given(cardDecider, frozen).when(update({ state: 'ACTIVE' })).decision as CardEvent[]).map((e) => e.type)).toEqual(['CardUnfrozen.v1', 'CardStateChanged.v1']);
    const close = given(cardDecider, frozen).when(update({ state: 'CLOSED' })).decision as CardEvent[];
    // Closing detaches the funding sources: the card after it binds none.
    expect(close.map((e) => e.type)).toEqual(['CardClosed.v1', 'CardStateChanged.v1', 'CardFundingSourcesChanged.v1']);
    expect(close[1].data).toMatchObject({ card: { state: 'CLOSED', stateReason: 'CLOSED_BY_PLATFORM', fundingSources: [] } });
    given(cardDecider, active).when(update({ state: 'ACTIVE' })).thenFails('INVALID_STATE_TRANSITION');
    given(cardDecider, frozen).when(update({ state: 'FROZEN' })).thenFails('INVALID_STATE_TRANSITION');
    given(cardDecider, [requested]).when(update({ state: 'FROZEN' })).thenFails('INVALID_STATE_TRANSITION');
    given(cardDecider, [requested]).when(update({ state: 'CLOSED' })).thenFails('INVALID_STATE_TRANSITION');
  });

  it('a CLOSED card is terminal: CARD_ALREADY_CLOSED for another close, CARD_NOT_MUTABLE for any other change', () => {
    given(cardDecider, closed).when(update({ state: 'CLOSED' })).thenFails('CARD_ALREADY_CLOSED');
    given(cardDecider, closed).when(update({ state: 'ACTIVE' })).thenFails('CARD_NOT_MUTABLE');
    given(cardDecider, closed).when(update({ maxSpendPerTransaction: 10 })).thenFails('CARD_NOT_MUTABLE');
  });

  it('refuses an empty change and CLOSED with other fields', () => {
    given(cardDecider, active).when(update({})).thenFails('INVALID_INPUT');
    given(cardDecider, active).when(update({ state: 'CLOSED', maxSpendPerTransaction: null })).thenFails('INVALID_INPUT');
    given(cardDecider, active).when(update({ state: 'CLOSED', fundingSources: terms.fundingSources })).thenFails('INVALID_INPUT');
  });

  it('replacing the funding sources tells the new ordered binding; the same list changes nothing', () => {
    const next = [{ accountId: 'InternalAccount:b', fundingSourceId: 'CardFundingSource:b', embeddedWallet: false }, ...terms.fundingSources];
    const events = given(cardDecider, active).when(update({ fundingSources: next })).decision as CardEvent[];
    expect(events.map((e) => e.type)).toEqual(['CardFundingSourcesReplaced.v1', 'CardFundingSourcesChanged.v1']);
    expect(events[1].data).toMatchObject({ card: { fundingSources: ['InternalAccount:b', 'InternalAccount:a'] } });
    given(cardDecider, active).when(update({ fundingSources: terms.fundingSources })).then([]);
  });

  it('sets and clears maxSpendPerTransaction without a webhook of its own', () => {
    const set = given(cardDecider, active).when(update({ maxSpendPerTransaction: 5000 })).decision as CardEvent[];
    expect(set.map((e) => e.type)).toEqual(['CardSpendLimitChanged.v1']);
    const limited = [...active, ...set];
    expect(given(cardDecider, limited).state).toMatchObject({ maxSpendPerTransaction: 5000 });
    given(cardDecider, limited).when(update({ maxSpendPerTransaction: 5000 })).then([]);
    expect((given(cardDecider, limited).when(update({ maxSpendPerTransaction: null })).decision as CardEvent[])[0].data).toEqual({ maxSpendPerTransaction: null, at: later });
  });

  it('reveals an ACTIVE or FROZEN card (the audit record names who and until when) and nothing else', () => {
    given(cardDecider, frozen).when({ type: 'Reveal', actor: 'client-1', expiresAt: later, now: at }).then([{ type: 'CardRevealed.v1', data: { actor: 'client-1', expiresAt: later, at } }]);
    given(cardDecider, [requested]).when({ type: 'Reveal', actor: 'client-1', expiresAt: later, now: at }).thenFails('CONFLICT');
    given(cardDecider, closed).when({ type: 'Reveal', actor: 'client-1', expiresAt: later, now: at }).thenFails('CONFLICT');
    given(cardDecider).when({ type: 'Reveal', actor: 'client-1', expiresAt: later, now: at }).thenFails('CARD_NOT_FOUND');
  });
});
