import type { Mode } from '@payments/contracts';
import { assertNever, Decider, DomainError } from '@payments/eventsourcing';
import { withBalanceChanged } from './balance-changed';
import { closedOutcome } from './closed-holds';
import { LedgerAccountEvent, LedgerOwner } from './ledger-account.events';
import { available, LedgerAccount, LedgerAccountState, evolveLedgerAccount } from './ledger-account.state';

export type LedgerAccountCommand =
  | { type: 'Open'; accountId: string; platformId: string; mode: Mode; owner: LedgerOwner; customerId?: string; currency: string; purpose: string; now: string }
  /** One leg of a balanced entry; `holdId` captures that hold (the debit may be less than the hold, never more). */
  | { type: 'Post'; entryId: string; reference: string; amount: number; counterpartyAccountId: string; kind: string; holdId?: string; now: string }
  | { type: 'PlaceHold'; holdId: string; amount: number; expiresAt?: string; reference: string; now: string; caller?: CallerScope; currency?: string }
  | { type: 'ReleaseHold'; holdId: string; outcome: 'RELEASED' | 'EXPIRED'; now: string; caller?: CallerScope };

/**
 * The platform and mode a command comes from (an RPC caller): it sees its own customer and platform accounts only,
 * anything else (another platform's, a SYSTEM account) is not found. Commands of the ledger itself carry none.
 */
export interface CallerScope {
  platformId: string;
  mode: Mode;
}

/** Whether a caller may name this account (the same rule as the ledger's reads scoped to a caller). */
export const visibleTo = (caller: CallerScope, account: LedgerAccount): boolean =>
  account.platformId === caller.platformId && account.mode === caller.mode && account.owner !== 'SYSTEM';

const invalidAmount = (amount: number) => !Number.isSafeInteger(amount) || amount === 0;

/**
 * One ledger account (DESIGN §7). Every money rule that concerns a single account lives here: no customer or
 * platform account is ever overdrawn, holds reserve funds until captured or released, and every command carries
 * the caller's id (entry or hold) so a redelivery changes nothing.
 */
export const ledgerAccountDecider: Decider<LedgerAccountState, LedgerAccountCommand, LedgerAccountEvent> = {
  initialState: { status: 'NONE' },
  evolve: evolveLedgerAccount,
  decide(command, state) {
    if (command.type === 'Open') {
      if (state.status === 'OPEN') return [];
      const { type: _t, now, ...data } = command;
      return [{ type: 'LedgerAccountOpened.v1', data: { ...data, openedAt: now } }];
    }
    if (state.status !== 'OPEN') return new DomainError('NOT_FOUND', 'ledger account not found');
    if ('caller' in command && command.caller && !visibleTo(command.caller, state)) return new DomainError('NOT_FOUND', `account ${state.accountId} not found`);
    const decided = decideOnOpen(command, state);
    return decided instanceof DomainError ? decided : withBalanceChanged(state, decided);
  },
};

function decideOnOpen(command: Exclude<LedgerAccountCommand, { type: 'Open' }>, account: LedgerAccount): LedgerAccountEvent[] | DomainError {
  switch (command.type) {
    case 'Post':
      return decidePost(command, account);
    case 'PlaceHold':
      return decidePlaceHold(command, account);
    case 'ReleaseHold': {
      if (closedOutcome(account.closedHolds, command.holdId)) return [];
      const hold = account.holds[command.holdId];
      if (!hold) return new DomainError('HOLD_NOT_FOUND', `hold ${command.holdId} does not exist`);
      return [{ type: 'HoldClosed.v1', data: { holdId: command.holdId, amount: hold.amount, outcome: command.outcome, at: command.now } }];
    }
    default:
      return assertNever(command);
  }
}

function decidePost(command: Extract<LedgerAccountCommand, { type: 'Post' }>, account: LedgerAccount): LedgerAccountEvent[] | DomainError {
  if (invalidAmount(command.amount)) return new DomainError('INVALID_AMOUNT', 'a posting amount must be a non-zero safe integer');
  const events: LedgerAccountEvent[] = [];
  let spendable = available(account);
  if (command.holdId) {
    const hold = account.holds[command.holdId];
    if (!hold) return new DomainError(closedOutcome(account.closedHolds, command.holdId) ? 'HOLD_ALREADY_CLOSED' : 'HOLD_NOT_FOUND', `hold ${command.holdId} is not open`);
    if (command.amount > 0 || -command.amount > hold.amount) return new DomainError('CAPTURE_EXCEEDS_HOLD', 'a capture debits at most the held amount');
    // Past its expiry a hold can no longer be captured, even if its expiry timer has not fired yet.
    if (hold.expiresAt && hold.expiresAt <= command.now) return new DomainError('HOLD_EXPIRED', `hold ${command.holdId} expired at ${hold.expiresAt}`);
    events.push({ type: 'HoldClosed.v1', data: { holdId: command.holdId, amount: hold.amount, outcome: 'CAPTURED', at: command.now } });
    spendable += hold.amount;
  }
  if (command.amount < 0 && account.owner !== 'SYSTEM' && spendable + command.amount < 0) {
    return new DomainError('INSUFFICIENT_FUNDS', `available ${spendable} is less than ${-command.amount}`);
  }
  const { entryId, reference, amount, counterpartyAccountId, kind, holdId } = command;
  events.push({ type: 'PostingRecorded.v1', data: { entryId, reference, amount, counterpartyAccountId, kind, holdId, balanceAfter: account.total + amount, at: command.now } });
  return events;
}

function decidePlaceHold(command: Extract<LedgerAccountCommand, { type: 'PlaceHold' }>, account: LedgerAccount): LedgerAccountEvent[] | DomainError {
  if (command.currency !== undefined && command.currency !== account.currency) {
    return new DomainError('INVALID_CURRENCY', `account ${account.accountId} holds ${account.currency}, not ${command.currency}`);
  }
  if (invalidAmount(command.amount) || command.amount < 0) return new DomainError('INVALID_AMOUNT', 'a hold amount must be a positive safe integer');
  const existing = account.holds[command.holdId];
  if (existing) return existing.amount === command.amount ? [] : new DomainError('CONFLICT', `hold ${command.holdId} exists with another amount`);
  const closed = closedOutcome(account.closedHolds, command.holdId);
  if (closed) return new DomainError('HOLD_ALREADY_CLOSED', `hold ${command.holdId} was already ${closed.toLowerCase()}`);
  if (account.owner !== 'SYSTEM' && available(account) < command.amount) {
    return new DomainError('INSUFFICIENT_FUNDS', `available ${available(account)} is less than ${command.amount}`);
  }
  const { holdId, amount, expiresAt, reference, now } = command;
  return [{ type: 'HoldPlaced.v1', data: { holdId, amount, expiresAt, reference, at: now } }];
}
