import type { Mode } from '@payments/contracts';
import { assertNever } from '@payments/eventsourcing';
import { ClosedHolds, withClosed } from './closed-holds';
import { LedgerAccountEvent, LedgerOwner } from './ledger-account.events';

export interface Hold {
  amount: number;
  expiresAt?: string;
  reference: string;
}

export interface LedgerAccount {
  accountId: string;
  platformId: string;
  mode: Mode;
  owner: LedgerOwner;
  customerId?: string;
  currency: string;
  purpose: string;
  /** Sum of postings: `totalBalance`. Available (`balance`) is this minus the open holds. */
  total: number;
  held: number;
  holds: Readonly<Record<string, Hold>>;
  /** Hold ids that are closed, so a repeated capture, release or placement is recognised as done (idempotency). */
  closedHolds: ClosedHolds;
}

export type LedgerAccountState = { status: 'NONE' } | ({ status: 'OPEN' } & LedgerAccount);

export const available = (account: LedgerAccount): number => account.total - account.held;

export function evolveLedgerAccount(state: LedgerAccountState, event: LedgerAccountEvent): LedgerAccountState {
  if (event.type === 'LedgerAccountOpened.v1') {
    const { openedAt: _openedAt, ...d } = event.data;
    return { status: 'OPEN', ...d, total: 0, held: 0, holds: {}, closedHolds: undefined };
  }
  if (state.status !== 'OPEN') return state;
  switch (event.type) {
    case 'PostingRecorded.v1':
      return { ...state, total: event.data.balanceAfter };
    case 'HoldPlaced.v1': {
      const { holdId, amount, expiresAt, reference } = event.data;
      return { ...state, held: state.held + amount, holds: { ...state.holds, [holdId]: { amount, expiresAt, reference } } };
    }
    case 'HoldClosed.v1': {
      const { [event.data.holdId]: closed, ...open } = state.holds;
      const held = closed ? state.held - closed.amount : state.held;
      return { ...state, held, holds: open, closedHolds: withClosed(state.closedHolds, event.data.holdId, event.data.outcome) };
    }
    case 'InternalAccountBalanceChanged.v1':
      return state; // derived from the events before it
    default:
      return assertNever(event);
  }
}
