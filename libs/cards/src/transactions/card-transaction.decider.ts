import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import type { CardDeclineReason } from '@payments/contracts';
import { AppliedData, AuthorizedData, CardTransactionEvent, CardTransactionTerms, NetworkMessage } from './card-transaction.events';
import { CardTransactionState, evolveCardTransaction, isOpen, OpenCardTransaction, refundedAmount } from './card-transaction.state';
import { toCardTransaction } from './card-transaction.view';

export type CardTransactionCommand =
  | { type: 'ReceiveAuthorization'; terms: CardTransactionTerms }
  | { type: 'Decline'; reason: CardDeclineReason; at: string }
  | { type: 'Authorize'; authorized: AuthorizedData }
  /** `reconcile`: the card's close expiring what is open; nothing to do is not an error then. */
  | { type: 'ReceiveMessage'; message: Omit<NetworkMessage, 'n'>; reconcile?: boolean }
  | { type: 'ApplyMessage'; applied: AppliedData }
  | { type: 'CompletePull'; n: number; status: 'CONFIRMED' | 'FAILED'; at: string };

const notFound = () => new DomainError('CARD_TRANSACTION_NOT_FOUND', 'card transaction not found');
const wrongState = (s: OpenCardTransaction, what: string) => new DomainError('INVALID_STATE_TRANSITION', `${what} does not apply to a ${s.status} card transaction`);
const invalidAmount = (message: string) => new DomainError('INVALID_INPUT', `amount ${message}`, { errors: [{ field: 'amount', message }] });

/**
 * One card transaction (stream `CardTransaction:<uuid>`): the authorization and every network message after it, one
 * at a time (a message waits until the previous one is applied). The money rules (what a message may ask for, given
 * what was authorized, settled and refunded) are here; the ledger calls are the network saga's.
 */
export const cardTransactionDecider: Decider<CardTransactionState, CardTransactionCommand, CardTransactionEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveCardTransaction,
  decide(command, state) {
    const decided = decideCommand(command, state);
    return decided instanceof DomainError ? decided : withUpdate(state, decided);
  },
};

function decideCommand(command: CardTransactionCommand, s: CardTransactionState): CardTransactionEvent[] | DomainError {
  switch (command.type) {
    case 'ReceiveAuthorization':
      return s.status === 'NONE' ? [{ type: 'CardAuthorizationReceived.v1', data: command.terms }] : [];
    case 'Decline': {
      if (s.status !== 'RECEIVED') return [];
      const { platformId, mode, cardId, customerId, issuerTransactionToken, amount, currency, merchant } = s;
      return [{ type: 'CardAuthorizationDeclined.v1', data: { platformId, mode, cardId, customerId, issuerTransactionToken, reason: command.reason, amount, currency, merchant, at: command.at } }];
    }
    case 'Authorize':
      return s.status === 'RECEIVED' ? [{ type: 'CardTransactionAuthorized.v1', data: command.authorized }] : [];
    case 'ReceiveMessage':
      return receive(command, s);
    case 'ApplyMessage':
      if (!isOpen(s)) return notFound();
      // Applied already (a saga step that ran twice): nothing more.
      if (!s.pending || s.pending.n !== command.applied.n) return [];
      return [{ type: 'CardNetworkMessageApplied.v1', data: command.applied }];
    case 'CompletePull':
      if (!isOpen(s) || !s.pulls.some((p) => p.n === command.n && p.status === 'PENDING')) return [];
      return [{ type: 'CardPullCompleted.v1', data: { n: command.n, status: command.status, at: command.at } }];
    default:
      return assertNever(command);
  }
}

function receive(command: Extract<CardTransactionCommand, { type: 'ReceiveMessage' }>, s: CardTransactionState): CardTransactionEvent[] | DomainError {
  if (!isOpen(s)) return command.reconcile ? [] : notFound();
  const m = command.message;
  const refusal = refuse(s, m);
  if (refusal) return command.reconcile ? [] : refusal;
  if (s.pending) return new DomainError('CONFLICT', 'an earlier network message for this card transaction is still being applied; retry shortly');
  return [{ type: 'CardNetworkMessageReceived.v1', data: { ...m, n: s.nextN } }];
}

/** Why the network message does not fit the transaction as it stands, or undefined. */
function refuse(s: OpenCardTransaction, m: Omit<NetworkMessage, 'n'>): DomainError | undefined {
  const open = s.status === 'AUTHORIZED' || s.status === 'PARTIALLY_SETTLED';
  switch (m.kind) {
    case 'CLEARING':
    case 'EXPIRY':
      return open ? undefined : wrongState(s, m.kind === 'CLEARING' ? 'a clearing' : 'an authorization expiry');
    case 'ADVICE':
      if (!open) return wrongState(s, 'an authorization advice');
      return m.amount < s.settled ? invalidAmount(`must be at least the ${s.settled} already settled`) : undefined;
    case 'RETURN': {
      if (s.direction !== 'DEBIT') return wrongState(s, 'a return on a credit');
      if (!(s.status === 'SETTLED' || s.status === 'PARTIALLY_SETTLED') || s.settled === 0) return wrongState(s, 'a return');
      const net = s.settled - refundedAmount(s);
      return m.amount > net ? invalidAmount(`must be at most the net settled amount ${net}`) : undefined;
    }
    case 'RETURN_REVERSAL':
      return s.status === 'REFUNDED' ? undefined : wrongState(s, 'a return reversal');
  }
}

/** Every change of an authorized transaction is told with its view after it (CardTransactionUpdated.v1). */
function withUpdate(before: CardTransactionState, events: CardTransactionEvent[]): CardTransactionEvent[] {
  const changesView = events.some((e) => e.type === 'CardTransactionAuthorized.v1' || e.type === 'CardNetworkMessageApplied.v1' || e.type === 'CardPullCompleted.v1');
  if (!changesView) return events;
  const after = events.reduce(evolveCardTransaction, before);
  if (!isOpen(after)) return events;
  return [...events, { type: 'CardTransactionUpdated.v1', data: { platformId: after.platformId, mode: after.mode, transaction: toCardTransaction(after) } }];
}
