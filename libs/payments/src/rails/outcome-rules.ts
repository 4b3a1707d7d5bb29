import type { TransactionFailureReason, TransactionStatus, TransactionType } from '@payments/contracts';
import type { RailOutcome } from './rail-connector';
import type { RailPaymentStatus } from './rail-payments';

/**
 * The rules of a rail payment's outcomes, pure (docs/rails.md "Outcomes in order"). A payment's news is recorded under
 * its row's lock, one outcome at a time, and applied by one writer in the order recorded; these functions say what
 * each piece of news means given what came before.
 */

export type OutcomeKind = RailOutcome['kind'];

/** News moves the payment; a contradiction (or a repeat of a final word) changes nothing and goes to an operator. */
export type RecordDecision = { news: true; status: RailPaymentStatus } | { news: false; reason: string };

const FINAL: readonly RailPaymentStatus[] = ['REJECTED', 'RETURNED'];

/**
 * What an outcome means for a payment in `status`. A settlement is followed by a return only; a rejection or a return
 * is the last word: a settlement after either, a rejection after a settlement, a second final word are contradictions.
 * A return before any settlement was seen is news (the bank settled and returned; we learn both at once).
 */
export function decideRecord(status: RailPaymentStatus, kind: OutcomeKind): RecordDecision {
  if (FINAL.includes(status)) return { news: false, reason: `${kind} reported for a payment already ${status}` };
  if (status === 'SETTLED' && kind !== 'RETURNED') return { news: false, reason: `${kind} reported for a payment already SETTLED` };
  return { news: true, status: kind };
}

/** Within one file or report, the order the rail defines: a payment settles before it is rejected or returned. */
const RANK: Record<OutcomeKind, number> = { SETTLED: 0, REJECTED: 1, RETURNED: 2 };

/**
 * The entries of one import in the rail's order: entries that are outcomes sorted by rank (stably, so a file's own
 * order stands among equals), everything else where it was. Each keeps its index in the file (exception ids use it).
 */
export function inRailOrder<T>(entries: readonly T[], kindOf: (entry: T) => OutcomeKind | undefined): { entry: T; index: number }[] {
  const indexed = entries.map((entry, index) => ({ entry, index, kind: kindOf(entry) }));
  const outcomes = indexed.filter((e) => e.kind !== undefined).sort((a, b) => RANK[a.kind!] - RANK[b.kind!] || a.index - b.index);
  let next = 0;
  return indexed.map((e) => (e.kind === undefined ? e : outcomes[next++])).map(({ entry, index }) => ({ entry, index }));
}

/** What the saga does with an outcome, given the transaction's status (the effect of one application). */
export type TransactionEffect = 'SETTLE' | 'FAIL_BEFORE_SETTLEMENT' | 'REVERSE_SETTLEMENT' | 'NONE';

/** Only a transaction still waiting for its rail (PENDING, PROCESSING) or COMPLETED by it can be moved by its news. */
export function transactionEffect(status: TransactionStatus, kind: OutcomeKind): TransactionEffect {
  if (status !== 'PENDING' && status !== 'PROCESSING' && status !== 'COMPLETED') return 'NONE';
  if (kind === 'SETTLED') return status === 'COMPLETED' ? 'NONE' : 'SETTLE';
  return status === 'COMPLETED' ? 'REVERSE_SETTLEMENT' : 'FAIL_BEFORE_SETTLEMENT';
}

/**
 * The published reason of a failure: after settlement the money left and came back, which the platform must be able
 * to tell from the answer (PAYOUT_RETURNED, COLLECTION_FAILED for a pull), the rail's code kept as failureDetail;
 * before settlement the reason the rail's code maps to.
 */
export function failureReasonOf(effect: 'FAIL_BEFORE_SETTLEMENT' | 'REVERSE_SETTLEMENT', direction: TransactionType, mapped: TransactionFailureReason | undefined): TransactionFailureReason {
  if (effect === 'REVERSE_SETTLEMENT') return direction === 'INCOMING' ? 'COLLECTION_FAILED' : 'PAYOUT_RETURNED';
  return mapped ?? (direction === 'INCOMING' ? 'COLLECTION_FAILED' : 'QUOTE_EXECUTION_FAILED');
}
