import type { CardTransactionStatus } from '@payments/contracts';
import { AuthorizedData, CardTransactionEvent, CardTransactionTerms, NetworkMessage, Pull } from './card-transaction.events';

export interface Refund {
  n: number;
  amount: number;
  reversed: boolean;
}

/** An authorized card transaction: what was authorized, pulled, settled, released and refunded. */
export interface OpenCardTransaction extends CardTransactionTerms {
  status: CardTransactionStatus;
  accountId: string;
  fundingSourceId: string;
  authorizedAmount: number;
  pulls: Pull[];
  settled: number;
  settlementCount: number;
  /** Pulled into the card network and given back unsettled (expiry, a smaller advice). */
  released: number;
  /** Credits paid to the funding source (CREDIT transactions). */
  credited: number;
  refunds: Refund[];
  /** A return reversal the funding source could not pay back. */
  reversalFailed: boolean;
  closedReason?: 'AUTHORIZATION_EXPIRY' | 'BALANCE_INQUIRY';
  /** The message received and not applied yet; the next one waits for it. */
  pending?: NetworkMessage;
  /** The next message's number (the authorization is 1). */
  nextN: number;
  authorizedAt: string;
  lastEventAt: string;
  updatedAt: string;
}

export type CardTransactionState =
  | { status: 'NONE' }
  | (CardTransactionTerms & { status: 'RECEIVED' })
  | (CardTransactionTerms & { status: 'DECLINED'; updatedAt: string })
  | OpenCardTransaction;

export const isOpen = (s: CardTransactionState): s is OpenCardTransaction => s.status !== 'NONE' && s.status !== 'RECEIVED' && s.status !== 'DECLINED';

export const confirmedPulled = (s: OpenCardTransaction) => s.pulls.filter((p) => p.status === 'CONFIRMED').reduce((sum, p) => sum + p.amount, 0);
export const refundedAmount = (s: OpenCardTransaction) => s.refunds.filter((r) => !r.reversed).reduce((sum, r) => sum + r.amount, 0);
/** Pulled into the network for this transaction and neither settled nor given back. */
export const unsettledPulled = (s: OpenCardTransaction) => confirmedPulled(s) - s.settled - s.released;

/**
 * The status follows from the amounts: a failed pull or an unpaid return reversal is an EXCEPTION; a transaction is
 * SETTLED once its clearings reach the authorized amount or it closed; REFUNDED once a settled one is refunded in
 * full; PARTIALLY_SETTLED while clearings are still expected.
 */
export function statusOf(s: Omit<OpenCardTransaction, 'status'>): CardTransactionStatus {
  if (s.reversalFailed || s.pulls.some((p) => p.status === 'FAILED')) return 'EXCEPTION';
  const done = s.closedReason !== undefined || (s.settled > 0 && s.settled >= s.authorizedAmount);
  const refunded = s.refunds.filter((r) => !r.reversed).reduce((sum, r) => sum + r.amount, 0);
  if (done && s.settled > 0 && refunded >= s.settled) return 'REFUNDED';
  if (done) return 'SETTLED';
  return s.settled > 0 ? 'PARTIALLY_SETTLED' : 'AUTHORIZED';
}

function withStatus(s: Omit<OpenCardTransaction, 'status'>): OpenCardTransaction {
  return { ...s, status: statusOf(s) } as OpenCardTransaction;
}

function authorized(terms: CardTransactionTerms, d: AuthorizedData): OpenCardTransaction {
  return withStatus({
    ...terms,
    accountId: d.accountId,
    fundingSourceId: d.fundingSourceId,
    authorizedAmount: terms.amount,
    pulls: d.pull ? [d.pull] : [],
    settled: d.settled,
    settlementCount: d.settled > 0 ? 1 : 0,
    released: 0,
    credited: d.credited,
    refunds: [],
    reversalFailed: false,
    closedReason: d.closedReason,
    nextN: 2,
    authorizedAt: d.at,
    lastEventAt: d.at,
    updatedAt: d.at,
  });
}

const replacePulls = (pulls: Pull[], changed: Pull[]) => pulls.map((p) => changed.find((c) => c.n === p.n) ?? p);

export function evolveCardTransaction(state: CardTransactionState, event: CardTransactionEvent): CardTransactionState {
  switch (event.type) {
    case 'CardAuthorizationReceived.v1':
      return { ...event.data, status: 'RECEIVED' };
    case 'CardAuthorizationDeclined.v1':
      return state.status === 'RECEIVED' ? { ...state, status: 'DECLINED', updatedAt: event.data.at } : state;
    case 'CardTransactionAuthorized.v1':
      return state.status === 'RECEIVED' ? authorized(state, event.data) : state;
    case 'CardNetworkMessageReceived.v1':
      return isOpen(state) ? { ...state, pending: event.data, nextN: event.data.n + 1 } : state;
    case 'CardNetworkMessageApplied.v1': {
      if (!isOpen(state)) return state;
      const d = event.data;
      const { status: _s, pending: _p, ...rest } = state;
      const pulls = [...replacePulls(rest.pulls, d.pulls), ...(d.newPull ? [d.newPull] : [])];
      const refunds = d.refund ? [...rest.refunds, { ...d.refund, reversed: false }] : rest.refunds.map((r) => (d.reversedRefund && !d.reversedRefund.failed && r.n === d.reversedRefund.n ? { ...r, reversed: true } : r));
      return withStatus({
        ...rest,
        pulls,
        refunds,
        settled: rest.settled + d.settled,
        settlementCount: rest.settlementCount + (d.settled > 0 ? 1 : 0),
        released: rest.released + d.released,
        credited: rest.credited + d.credited,
        reversalFailed: rest.reversalFailed || (d.reversedRefund?.failed ?? false),
        authorizedAmount: d.authorizedAmount ?? rest.authorizedAmount,
        closedReason: d.closedReason ?? rest.closedReason,
        lastEventAt: d.at,
        updatedAt: d.at,
      });
    }
    case 'CardPullCompleted.v1': {
      if (!isOpen(state)) return state;
      const { status: _s, ...rest } = state;
      return withStatus({ ...rest, pulls: rest.pulls.map((p) => (p.n === event.data.n && p.status === 'PENDING' ? { ...p, status: event.data.status } : p)), lastEventAt: event.data.at, updatedAt: event.data.at });
    }
    case 'CardTransactionUpdated.v1':
      return state;
  }
}
