import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { CardState as PublicCardState } from '@payments/contracts';
import { CardEvent, CardTerms, FundingSourceBinding, ProvisionedCard } from './card.events';
import { CardState, evolveCard, ExistingCard } from './card.state';
import { toCard } from './card.view';

export type CardCommand =
  | { type: 'RequestCard'; terms: CardTerms }
  | { type: 'Provision'; provisioned: ProvisionedCard }
  | { type: 'RejectIssue'; now: string }
  /** PATCH /cards/{id}: `maxSpendPerTransaction` undefined leaves it, null clears it. */
  | { type: 'UpdateCard'; state?: Exclude<PublicCardState, 'PROCESSING'>; fundingSources?: FundingSourceBinding[]; maxSpendPerTransaction?: number | null; by: string; now: string }
  | { type: 'Reveal'; actor: string; expiresAt: string; now: string };

const notFound = () => new DomainError('CARD_NOT_FOUND', 'card not found');

/**
 * One card (stream `Card:<uuid>`): its lifecycle (PROCESSING → ACTIVE ⇄ FROZEN → CLOSED, or CLOSED by the issuer),
 * funding sources and limit, and the reveal audit. Every change that a platform hears of carries the card after it.
 */
export const cardDecider: Decider<CardState, CardCommand, CardEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveCard,
  decide(command, state) {
    if (command.type === 'RequestCard') return state.status === 'NONE' ? withPublicEvents(state, [{ type: 'CardIssueRequested.v1', data: command.terms }]) : [];
    if (state.status === 'NONE') return notFound();
    const decided = decideExisting(command, state);
    return decided instanceof DomainError ? decided : withPublicEvents(state, decided);
  },
};

function decideExisting(command: Exclude<CardCommand, { type: 'RequestCard' }>, s: ExistingCard): CardEvent[] | DomainError {
  switch (command.type) {
    case 'Provision':
      // The issuer answers once; a repeat (a timer that ran twice) changes nothing.
      return s.state === 'PROCESSING' ? [{ type: 'CardProvisioned.v1', data: command.provisioned }] : [];
    case 'RejectIssue':
      return s.state === 'PROCESSING' ? [{ type: 'CardIssuerRejected.v1', data: { at: command.now } }] : [];
    case 'UpdateCard':
      return decideUpdate(command, s);
    case 'Reveal':
      if (s.state !== 'ACTIVE' && s.state !== 'FROZEN') return new DomainError('CONFLICT', `a ${s.state} card cannot be revealed`);
      return [{ type: 'CardRevealed.v1', data: { actor: command.actor, expiresAt: command.expiresAt, at: command.now } }];
    default:
      return assertNever(command);
  }
}

function decideUpdate(c: Extract<CardCommand, { type: 'UpdateCard' }>, s: ExistingCard): CardEvent[] | DomainError {
  if (c.state === undefined && c.fundingSources === undefined && c.maxSpendPerTransaction === undefined) {
    return new DomainError('INVALID_INPUT', 'give at least one of state, fundingSources and maxSpendPerTransaction');
  }
  if (c.state === 'CLOSED' && (c.fundingSources !== undefined || c.maxSpendPerTransaction !== undefined)) {
    return new DomainError('INVALID_INPUT', 'state CLOSED cannot be combined with fundingSources or maxSpendPerTransaction');
  }
  if (s.state === 'CLOSED') {
    return c.state === 'CLOSED' ? new DomainError('CARD_ALREADY_CLOSED', 'the card is already CLOSED') : new DomainError('CARD_NOT_MUTABLE', 'a CLOSED card cannot change');
  }
  const events: CardEvent[] = [];
  if (c.state !== undefined) {
    const move = transition(s.state, c.state);
    if (!move) return new DomainError('INVALID_STATE_TRANSITION', `a ${s.state} card cannot become ${c.state}`);
    events.push({ type: move, data: { at: c.now, by: c.by } });
  }
  if (c.fundingSources !== undefined && !sameBindings(c.fundingSources, s.fundingSources)) {
    events.push({ type: 'CardFundingSourcesReplaced.v1', data: { fundingSources: c.fundingSources, at: c.now } });
  }
  if (c.maxSpendPerTransaction !== undefined && c.maxSpendPerTransaction !== s.maxSpendPerTransaction) {
    events.push({ type: 'CardSpendLimitChanged.v1', data: { maxSpendPerTransaction: c.maxSpendPerTransaction, at: c.now } });
  }
  return events;
}

/** ACTIVE ⇄ FROZEN and ACTIVE | FROZEN → CLOSED; everything else (PROCESSING, the same state) is refused. */
function transition(from: PublicCardState, to: Exclude<PublicCardState, 'PROCESSING'>): 'CardFrozen.v1' | 'CardUnfrozen.v1' | 'CardClosed.v1' | undefined {
  if (from === 'ACTIVE' && to === 'FROZEN') return 'CardFrozen.v1';
  if (from === 'FROZEN' && to === 'ACTIVE') return 'CardUnfrozen.v1';
  if ((from === 'ACTIVE' || from === 'FROZEN') && to === 'CLOSED') return 'CardClosed.v1';
  return undefined;
}

const sameBindings = (a: FundingSourceBinding[], b: FundingSourceBinding[]) => a.length === b.length && a.every((x, i) => x.accountId === b[i].accountId);

/** Appends what platforms hear of: the card after a state change, and after its funding sources changed. */
function withPublicEvents(before: CardState, events: CardEvent[]): CardEvent[] {
  if (events.length === 0) return events;
  const after = events.reduce(evolveCard, before);
  if (after.status === 'NONE') return events;
  const data = { platformId: after.platformId, mode: after.mode, card: toCard(after) };
  const stateBefore = before.status === 'NONE' ? undefined : before.state;
  const sourcesBefore = before.status === 'NONE' ? undefined : before.fundingSources;
  const out = [...events];
  // A new card is PROCESSING: its first webhook is the issuer's answer.
  if (stateBefore !== undefined && stateBefore !== after.state) out.push({ type: 'CardStateChanged.v1', data });
  if (sourcesBefore !== undefined && !sameBindings(sourcesBefore, after.fundingSources)) out.push({ type: 'CardFundingSourcesChanged.v1', data });
  return out;
}
