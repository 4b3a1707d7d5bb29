import type { NetworkMessage, Pull, PullPlan } from './card-transaction.events';
import { OpenCardTransaction, unsettledPulled } from './card-transaction.state';

/**
 * What one network message moves on an open card transaction (pure: the cards network saga performs it through the
 * ledger and records the outcome). Amounts are in the transaction's currency; `release`, `credit` and `refund` pay
 * the funding account from the card network, `newPull` takes from it.
 */
export interface MessageEffects {
  /** Pending pulls done now, before the message (the network moved on). */
  confirmPending: Pull[];
  /** Pending pulls an expiry makes unnecessary. */
  cancelPending: Pull[];
  newPull?: { n: number; amount: number; plan: PullPlan };
  settle: number;
  release: number;
  credit: number;
  refund?: { n: number; amount: number };
  reverseRefund?: { n: number; amount: number };
  authorizedAmount?: number;
  closedReason?: 'AUTHORIZATION_EXPIRY';
}

const none = (): MessageEffects => ({ confirmPending: [], cancelPending: [], settle: 0, release: 0, credit: 0 });

/**
 * `confirmPending` names the pulls the message needs made first; the saga makes and records them, then asks again:
 * the amounts that follow are those of the recorded state (a pull still pending has taken nothing).
 */
export function effectsOf(s: OpenCardTransaction, m: NetworkMessage): MessageEffects {
  const pending = s.pulls.filter((p) => p.status === 'PENDING');
  const e = none();
  const nextPull = s.pulls.length + 1;
  if (s.direction === 'CREDIT') {
    if (m.kind === 'CLEARING') return { ...e, settle: m.amount, credit: m.amount };
    if (m.kind === 'EXPIRY') return { ...e, closedReason: 'AUTHORIZATION_EXPIRY' };
    if (m.kind === 'ADVICE') return { ...e, authorizedAmount: m.amount };
    return e; // returns do not apply to credits (refused when received)
  }
  switch (m.kind) {
    case 'EXPIRY': {
      // What was pulled and not settled goes back; a pull still pending is simply not made.
      const confirmed = { ...s, pulls: s.pulls.filter((p) => p.status !== 'PENDING') };
      return { ...e, cancelPending: pending, release: Math.max(0, unsettledPulled(confirmed)), closedReason: 'AUTHORIZATION_EXPIRY' };
    }
    case 'CLEARING': {
      const remaining = Math.max(0, s.authorizedAmount - s.settled);
      const extra = m.amount - remaining;
      return { ...e, confirmPending: pending, settle: m.amount, ...(extra > 0 ? { newPull: { n: nextPull, amount: extra, plan: s.pullPlan } } : {}) };
    }
    case 'ADVICE': {
      const delta = m.amount - s.authorizedAmount;
      if (delta > 0) return { ...e, confirmPending: pending, authorizedAmount: m.amount, newPull: { n: nextPull, amount: delta, plan: s.pullPlan } };
      // Less: what the network holds beyond the new amount (what is still to settle of it) goes back; a pull that
      // failed took nothing, so it gives nothing back.
      return { ...e, confirmPending: pending, authorizedAmount: m.amount, release: Math.max(0, unsettledPulled(s) - (m.amount - s.settled)) };
    }
    case 'RETURN':
      return { ...e, refund: { n: s.refunds.length + 1, amount: m.amount } };
    case 'RETURN_REVERSAL': {
      const last = [...s.refunds].reverse().find((r) => !r.reversed);
      return last ? { ...e, reverseRefund: { n: last.n, amount: last.amount } } : e;
    }
  }
}
